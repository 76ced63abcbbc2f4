/// The line around an offset (`Matcher.lineRange`), kept while later offsets stay on it:
/// findings on one long line (a minified bundle, a one-line dump) would each find the line's
/// bounds again, scanning it both ways (one 2 MB line of 13,600 findings took 109 s, 0.9 s with
/// the line kept). Any offset from the line's first byte to its newline gives that line. One
/// cache serves one buffer: a buffer may be reused for other bytes.
public struct LineCache {
    private var from = 0
    private var newline = -1
    private var range = 0..<0

    public init() {}

    /// The line holding `offset`, without its terminator, and whether it is another line than
    /// the one given last (so a caller can keep what it read on the line beside it).
    public mutating func line(containing offset: Int, in buffer: UnsafeRawBufferPointer) -> (range: Range<Int>, isNew: Bool) {
        if from <= offset && offset <= newline { return (range, false) }
        let bounds = Matcher.lineBounds(containing: offset, in: buffer)
        from = bounds.range.lowerBound
        newline = bounds.newline
        range = bounds.range
        return (range, true)
    }
}
