@testable import ObjectFiles

/// `UTF16Text.extract` as it was before its word-at-a-time fast path: every byte visited,
/// the obvious reading of the segment rule. Kept here only as the reference the fast one
/// must agree with exactly (`UTF16TextEquivalenceTests`).
enum UTF16TextReference {
    static func extract(_ bytes: UnsafeRawBufferPointer, minLength: Int,
                        into decoded: inout [UInt8], runs: inout [UTF16Text.Run]) {
        let n = bytes.count
        guard n >= 2 else { return }
        let minimum = max(minLength, 1)
        var i = 0
        while i < n {
            let first = bytes[i]
            guard first == 0 || UTF16Text.isText(first) else { i += 1; continue }
            var j = i + 1
            while j < n {
                let a = bytes[j - 1], b = bytes[j]
                guard (a == 0 && UTF16Text.isText(b)) || (UTF16Text.isText(a) && b == 0) else { break }
                j += 1
            }
            let isBE = first == 0 && bytes[j - 1] != 0
            let start = isBE ? i : (first == 0 ? i + 1 : i)
            let units = (j - start) / 2
            if units >= minimum {
                let lower = decoded.count
                var p = isBE ? start + 1 : start
                for _ in 0..<units { decoded.append(bytes[p]); p += 2 }
                runs.append(UTF16Text.Run(decodedRange: lower..<(lower + units), sourceOffset: start))
                decoded.append(UInt8(ascii: "\n"))
            }
            i = j
        }
    }
}
