/// Removes every stretch of text that repeats part of a known secret.
///
/// A provider that echoes the key in an error body rarely echoes it exactly: it may drop
/// the `sk-ant-` prefix, upper-case it, or quote a piece (`key ending in ...`). Removing
/// only the exact value left all of those in `--verbose` output and logs. Here any run of
/// at least `minimumRun` bytes that occurs in a secret, compared ASCII case-insensitively,
/// becomes the placeholder, wherever it starts in the secret.
///
/// Cost: for each text byte, each secret position with the same (folded) byte is extended
/// as far as both agree, O(text × secret × run); error bodies are cut to 2 KiB and keys are
/// about 100 bytes, so a body costs well under a millisecond, on the error path only.
enum SecretRuns {
    static func scrub(_ text: String, secrets: [[UInt8]], minimumRun: Int, placeholder: String) -> String {
        let bytes = Array(text.utf8)
        let folded = bytes.map(fold)
        let keys = secrets.filter { $0.count >= minimumRun }.map { $0.map(fold) }
        guard !keys.isEmpty, bytes.count >= minimumRun else { return text }

        // The longest run starting at each text position that some secret contains.
        var ranges: [Range<Int>] = []
        for start in 0...(bytes.count - minimumRun) {
            var longest = 0
            for key in keys {
                for k in key.indices where key[k] == folded[start] {
                    var n = 0
                    while start + n < folded.count && k + n < key.count && folded[start + n] == key[k + n] { n += 1 }
                    longest = max(longest, n)
                }
            }
            if longest >= minimumRun { ranges.append(start..<(start + longest)) }
        }
        guard !ranges.isEmpty else { return text }

        // Overlapping runs (every start inside a long echo has its own) merge into one.
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var out: [UInt8] = []
        var cursor = 0
        for range in merged {
            out += bytes[cursor..<range.lowerBound]
            out += Array(placeholder.utf8)
            cursor = range.upperBound
        }
        out += bytes[cursor...]
        return String(decoding: out, as: UTF8.self)
    }

    private static func fold(_ byte: UInt8) -> UInt8 {
        (0x41...0x5a).contains(byte) ? byte | 0x20 : byte
    }
}
