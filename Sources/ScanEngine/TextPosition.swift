/// Turns byte offsets in a text buffer into 1-based line and column, columns counting
/// Unicode scalars (UTF-8 continuation bytes do not start a column; invalid UTF-8 counts
/// a column per byte that is not a continuation byte, which is what an editor shows as
/// replacement characters).
enum TextPosition {
    struct LineColumn: Equatable { var line: Int; var column: Int }

    /// - Parameter linesBefore: newlines in the file before `buffer` starts.
    static func locate(_ offset: Int, in buffer: UnsafeRawBufferPointer, linesBefore: Int) -> LineColumn {
        let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var newlines = 0
        var lineStart = 0
        var i = 0
        while i < offset {
            if p[i] == 0x0A { newlines += 1; lineStart = i + 1 }
            i += 1
        }
        var column = 1
        var j = lineStart
        while j < offset {
            if p[j] & 0xC0 != 0x80 { column += 1 }
            j += 1
        }
        return LineColumn(line: linesBefore + newlines + 1, column: column)
    }

    static func countNewlines(_ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var count = 0
        for i in 0..<buffer.count where p[i] == 0x0A { count += 1 }
        return count
    }
}
