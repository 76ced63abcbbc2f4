import AppFormats
import FileInputs

/// The strings of an app-format file (the document `AppFormatLayout` parsed: a plist's
/// strings, a DEX's string data, an Android string pool, a class file's constant pool),
/// each on a line of its own, matched as text and reported at its bytes in the file.
///
/// Why the printable runs of the raw bytes are not enough: these formats store a length
/// right before each string, and a length is often a printable byte (a plist's `Z` marks a
/// 10-character string, a class file's `A` a 65-byte one), so the run reads `Zsk_live_...`
/// and a rule anchored at a word boundary misses the key. Here the length is gone.
///
/// A property list dict's string value is written after its key, `Key = "value"`, so a rule
/// that reads a credential's name reads it as it reads an assignment (`<key>APIToken</key>`
/// with its `<string>` in a binary `Info.plist`, where the key and the value are two objects
/// apart): the key's bytes are not in the file there, and map to the value's first byte, so
/// a finding is still the value's bytes. A key is written only when it is a plain name
/// (`isPlainKey`): a key is data, and must not make up text around a value.
///
/// UTF-16 strings become one byte a code unit (ASCII as is, anything else 0x1A), so a span
/// maps back at twice its length; UTF-8 and modified UTF-8 bytes are passed as they are. A
/// plist's `data` objects are buffers of their own (text when they hold no NUL). Only
/// strings starting in this read's own bytes and ending inside the buffer are yielded (a
/// chunked file's string crossing into the next chunk is left to the raw scan, which sees
/// every byte).
final class AppStringsTransform: LayoutTransform {
    private var decoded: [UInt8] = []
    private var segments: [Segment] = []

    private struct Segment {
        var decoded: Int
        var count: Int
        var source: Int
        var scale: Int
    }

    func applies(toBinary: Bool) -> Bool { toBinary }

    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, _ body: (DerivedBuffer) -> Void) {}

    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, layout: BinaryLayout?,
                _ body: (DerivedBuffer) -> Void) {
        guard let document = layout?.document else { return }
        decoded.removeAll(keepingCapacity: true)
        segments.removeAll(keepingCapacity: true)
        let strings = document.strings
        var i = document.firstString(endingAfter: baseOffset + own.lowerBound)
        while i < strings.count {
            let s = strings[i]
            i += 1
            let start = s.offset - baseOffset
            guard start >= own.lowerBound else { continue }
            guard start < own.upperBound else { break }
            guard s.end - baseOffset <= source.count else { continue }
            let bytes = UnsafeRawBufferPointer(rebasing: source[start..<(start + s.length)])
            switch s.encoding {
            case .data:
                let isText = !ChunkReader.looksBinary(bytes)
                body(DerivedBuffer(bytes: bytes, sourceSpan: { span in (start + span.lowerBound)..<(start + span.upperBound) },
                                   step: nil, isText: isText))
            case .utf8:
                let keyed = writeKey(of: s, in: document)
                segments.append(Segment(decoded: decoded.count, count: bytes.count, source: start, scale: 1))
                decoded.append(contentsOf: bytes)
                if keyed { decoded.append(UInt8(ascii: "\"")) }
                decoded.append(UInt8(ascii: "\n"))
            case .utf16BE, .utf16LE:
                let units = bytes.count / 2
                let keyed = writeKey(of: s, in: document)
                segments.append(Segment(decoded: decoded.count, count: units, source: start, scale: 2))
                let big = s.encoding == .utf16BE
                for u in 0..<units {
                    let hi = bytes[2 * u + (big ? 0 : 1)], lo = bytes[2 * u + (big ? 1 : 0)]
                    decoded.append(hi == 0 && lo < 0x80 ? lo : 0x1a)
                }
                if keyed { decoded.append(UInt8(ascii: "\"")) }
                decoded.append(UInt8(ascii: "\n"))
            }
        }
        guard !segments.isEmpty else { return }
        let segments = self.segments
        /// The source offset of decoded byte `index`, and the bytes its unit takes there (a
        /// separator maps to the end of the string before it).
        func sourceUnit(_ index: Int) -> (offset: Int, scale: Int) {
            var lo = 0, hi = segments.count
            while lo < hi { let mid = (lo + hi) / 2; if segments[mid].decoded + segments[mid].count < index { lo = mid + 1 } else { hi = mid } }
            let seg = segments[min(lo, segments.count - 1)]
            return (seg.source + seg.scale * min(max(index - seg.decoded, 0), seg.count), seg.scale)
        }
        decoded.withUnsafeBytes { buffer in
            body(DerivedBuffer(bytes: buffer, sourceSpan: { span in
                let lower = sourceUnit(span.lowerBound).offset
                guard !span.isEmpty else { return lower..<lower }
                let last = sourceUnit(span.upperBound - 1)
                return lower..<max(lower, last.offset + last.scale)
            }, step: nil))
        }
    }

    /// Writes `Key = "` before a dict's string value whose key is a plain name; returns
    /// whether it did (the caller closes the quote).
    private func writeKey(of s: AppString, in document: AppDocument) -> Bool {
        guard s.isDictValue, s.place >= 0, Int(s.place) < document.places.count else { return false }
        let path = Array(document.places[Int(s.place)].utf8)
        let key = Array(path[(path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...])
        guard AppStringsTransform.isPlainKey(key) else { return false }
        decoded.append(contentsOf: key)
        decoded.append(contentsOf: " = \"".utf8)
        return true
    }

    /// A key name of letters, digits, `_`, `.` and `-`, 1 to 64 bytes: nothing that could end
    /// the line or the quote, or start another assignment.
    static func isPlainKey(_ key: [UInt8]) -> Bool {
        guard (1...64).contains(key.count) else { return false }
        return key.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b == 0x2E || b == 0x2D
        }
    }
}
