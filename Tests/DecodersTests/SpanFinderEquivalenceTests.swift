@testable import Decoders
import Foundation
import TestSupport
import XCTest

/// The candidate finder's fast paths (bitmaps from one vector pass and a walk from event to
/// event, the windowed `TextCheck.mayHoldEncoding`, base64 decoded through a pointer) give
/// exactly the spans of the plain byte walk (`ReferenceSpanFinder`): same encodings, same
/// source ranges, same decoded bytes, same text flags, same budget left, on thousands of
/// seeded buffers of source-like text with encoded values of every encoding at random
/// offsets, and on buffers built to put runs, backslashes, `%` and `data:` at the edges of
/// the bitmaps' 64-bit words.
final class SpanFinderEquivalenceTests: XCTestCase {
    /// SplitMix64: the same buffers on every run.
    typealias Seeded = SeededGenerator

    static let words = ["self", "return", "def", "import", "value", "PyObject_HEAD", "getElementsByTagName", "NSMutableArray",
                        "__init__", "snake_case_name_here", "os/path/to/module", "/usr/lib/python3/dist-packages", "x", "i",
                        "0x7fff", "UInt64", "CamelCaseIdentifierName", "data", "url", "http://example.test/a?b=c&d=e", "é",
                        "naïve", "日本", "ALL_UPPER_CASE_CONSTANT", "0123456789", "sha256", "deadbeef", "a1b2c3d4e5f6"]
    static let punctuation = [" ", " ", " ", "\n", "\n    ", "(", ")", ".", ",", ":", ";", " = ", "\"", "'", "`", "{", "}", "[",
                              "]", "%", "%2F", "%zz", "\\", "\\n", "\\\"", "\\/", "\\u00e9", "\\x41", "\\101", "\\0", "data:",
                              "+", "-", "_", "/", "=", "==", "#", "\t", "\u{01}", "\u{7F}"]

    /// One encoded value of a randomly chosen encoding (some nested, some binary).
    static func encoded(_ r: inout Seeded) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var key = "ks_live_"
        for _ in 0..<(12 + r.below(30)) { key.append(alphabet[r.below(alphabet.count)]) }
        let text = r.pick(["token=\(key)", "password: \(key)", key, "{\"api_key\": \"\(key)\"}", "https://u:\(key)@host.test/x"])
        let noise = (0..<(8 + r.below(40))).map { _ in UInt8(truncatingIfNeeded: r.next()) }
        switch r.below(12) {
        case 0: return Data(text.utf8).base64EncodedString()
        case 1: return Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        case 2: return Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        case 3: return text.utf8.map { String(format: "%02x", $0) }.joined()
        case 4: return "0x" + text.utf8.map { String(format: "%02X", $0) }.joined()
        case 5: return "https://host.test/cb?next=" + text.utf8.map { String(format: "%%%02X", $0) }.joined()
        case 6: return "\"" + text.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() + "\""
        case 7: return "'" + text.utf8.map { String(format: "\\%03o", $0) }.joined() + "'"
        case 8: return "data:text/plain;base64," + Data(text.utf8).base64EncodedString()
        case 9: return Data(("q=" + text.utf8.map { String(format: "%%%02X", $0) }.joined()).utf8).base64EncodedString()
        case 10: return Data(noise).base64EncodedString()
        default: return noise.map { String(format: "%02x", $0) }.joined()
        }
    }

    static func buffer(seed: UInt64) -> [UInt8] {
        var r = Seeded(seed: seed)
        var out = ""
        let target = r.below(2000)
        while out.utf8.count < target {
            switch r.below(20) {
            case 0: out += encoded(&r)
            case 1...9: out += r.pick(words)
            default: out += r.pick(punctuation)
            }
        }
        var bytes = Array(out.utf8)
        // Now and then a byte with the high bit set outside any UTF-8 sequence, and a NUL.
        if !bytes.isEmpty && r.below(4) == 0 { bytes[r.below(bytes.count)] = UInt8(0x80 + r.below(128)) }
        if !bytes.isEmpty && r.below(8) == 0 { bytes[r.below(bytes.count)] = 0 }
        return bytes
    }

    func testFinderGivesTheReferenceSpansOnSeededBuffers() {
        var spansSeen = 0
        var textSpansSeen = 0
        for seed in 0..<3000 as Range<UInt64> {
            let bytes = Self.buffer(seed: seed)
            for keepBinary in [false, true] {
                let (spans, reference, sameBudget) = Self.findBoth(bytes, keepBinary: keepBinary)
                if spans != reference || !sameBudget {
                    XCTFail("seed \(seed), keepBinary \(keepBinary): \(spans.count) spans, the reference \(reference.count)")
                    return
                }
                spansSeen += spans.count
                textSpansSeen += spans.filter(\.isText).count
            }
        }
        // The buffers do hold what the finder looks for, of every kind.
        XCTAssertGreaterThan(textSpansSeen, 2000)
        XCTAssertGreaterThan(spansSeen, textSpansSeen)
    }

    func testEveryEncodingIsAmongTheSeededSpans() {
        var encodings = Set<Encoding>()
        for seed in 0..<500 as Range<UInt64> {
            let bytes = Self.buffer(seed: seed)
            var budget = DecodeBudget(maxDepth: 1, bufferSize: bytes.count)
            var spans: [DecodedSpan] = []
            var finder = SpanFinder()
            bytes.withUnsafeBytes { finder.find($0, keepBinary: false, budget: &budget, into: &spans) }
            encodings.formUnion(spans.map(\.encoding))
        }
        XCTAssertEqual(encodings, Set(Encoding.allCases))
    }

    /// A long base64 alphabet run at every alignment to the bitmaps' words, with runs of
    /// lower-case letters after it.
    func testBlockWalkAtEveryAlignment() {
        // Joined at run time, so no key-shaped literal sits in the test binary (a self-scan of
        // the build folder would report it).
        let value = Array(Decode.base64(["secret_token=", "ks_live_", "7Hq2Lx9Vb4Nw3Jk8"].joined()).utf8)
        for lead in 0..<40 {
            for tail in 0..<20 {
                var bytes = Array(repeating: UInt8(ascii: " "), count: lead) + value + Array(repeating: UInt8(ascii: "a"), count: tail)
                bytes += Array("\n% \\ : data: %41 \\u0041 CamelCaseName".utf8)
                let (spans, reference, _) = Self.findBoth(bytes, keepBinary: true)
                XCTAssertEqual(spans, reference, "lead \(lead), tail \(tail)")
                // The value ends in `==`, so the run of `a` after it is a run of its own.
                XCTAssertEqual(spans.first.map { [$0.encoding] }, [.base64], "lead \(lead), tail \(tail)")
                XCTAssertEqual(spans.first?.sourceRange, lead..<(lead + value.count), "lead \(lead), tail \(tail)")
            }
        }
    }

    /// The finder's spans of `bytes` (at `tier`, the widest the processor runs by default) and
    /// the reference finder's, one level under the depth-2 budget, and whether the two left the
    /// same budget.
    static func findBoth(_ bytes: [UInt8], keepBinary: Bool, tier: Int32? = nil)
        -> (spans: [DecodedSpan], reference: [DecodedSpan], sameBudget: Bool) {
        var budget = DecodeBudget(maxDepth: 2, bufferSize: bytes.count), referenceBudget = budget
        var spans: [DecodedSpan] = [], reference: [DecodedSpan] = []
        var finder = tier.map { SpanFinder(tier: $0) } ?? SpanFinder(), referenceFinder = ReferenceSpanFinder()
        bytes.withUnsafeBytes {
            finder.find($0, keepBinary: keepBinary, budget: &budget, into: &spans)
            referenceFinder.find($0, keepBinary: keepBinary, budget: &referenceBudget, into: &reference)
        }
        return (spans, reference, budget == referenceBudget)
    }

    /// Compares the finder (at `tier`, by default the widest) with the reference on `bytes`,
    /// both ways of `keepBinary`; returns how many spans the reference found.
    static func assertSameAsReference(_ bytes: [UInt8], _ label: @autoclosure () -> String, tier: Int32? = nil,
                                      file: StaticString = #filePath, line: UInt = #line) -> Int {
        var seen = 0
        for keepBinary in [false, true] {
            let (spans, reference, sameBudget) = findBoth(bytes, keepBinary: keepBinary, tier: tier)
            if spans != reference || !sameBudget {
                XCTFail("\(label()), keepBinary \(keepBinary): \(spans.map(\.sourceRange)) against the reference's "
                        + "\(reference.map(\.sourceRange))", file: file, line: line)
            }
            seen += reference.count
        }
        return seen
    }

    /// Pieces that make the walk do something other than pass over a byte: runs of two characters
    /// either side of `minimumBase64Length` with and without a strong byte, a backslash
    /// before a run or before a trigger (it eats the byte after it), `%` before hex digits and
    /// before a run, `data:` and colons after an `a`, `=` padding; each laid with fill so that
    /// it crosses or touches the end of a 64-bit bitmap word.
    static func boundaryBuffer(seed: UInt64) -> [UInt8] {
        var r = Seeded(seed: seed)
        let strong = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8), weak = Array("abcdefghijklmnopqrstuvwxyz+/-_".utf8)
        func run(_ count: Int) -> [UInt8] {
            var out = (0..<count).map { _ in r.below(3) == 0 ? r.pick(strong) : r.pick(weak) }
            if r.below(3) == 0 { out = (0..<count).map { _ in r.pick(weak) } }
            return out
        }
        var out: [UInt8] = []
        let target = 64 * (1 + r.below(6))
        while out.count < target {
            // Fill up to a few bytes before the end of the word, or anywhere.
            let word = (out.count / 64 + 1) * 64
            let fillTo = r.below(3) == 0 ? out.count + r.below(8) : max(out.count, word - r.below(20))
            while out.count < fillTo { out.append(r.pick(Array(" .,;()\n\t=#".utf8))) }
            switch r.below(12) {
            case 0: out += run(SpanFinder.minimumBase64Length - 2 + r.below(5))
            case 1: out += Array("\\".utf8) + run(SpanFinder.minimumBase64Length - 1 + r.below(4))
            case 2: out += Array(r.pick(["\\\\", "\\%", "\\:", "\\u0041", "\\x41", "\\/", "\\\"", "\\101"]).utf8)
            case 3: out += Array("%".utf8) + run(SpanFinder.minimumBase64Length - 1 + r.below(4))
            case 4: out += Array(r.pick(["%41", "%2F", "%zz", "%4", "%"]).utf8)
            case 5: out += Array(r.pick(["data:", "Data:", "xdata:", "a:", "data:text/plain;base64,", "data:,%41%42%43%44x"]).utf8)
            case 6: out += run(SpanFinder.minimumBase64Length + r.below(8)) + Array(r.pick(["=", "==", "===", ""]).utf8)
            // The weak password joined at run time: as one literal it sits in the test binary,
            // where the named-credential pass reports it (a password in a password slot, low).
            case 7: out += Array(Data(r.pick(["token=ks_live_", ["password: ", "hunter2"].joined(), "id=rIsjGe789"]).utf8).base64EncodedString().utf8)
            case 8: out += Array("\"".utf8) + run(SpanFinder.minimumBase64Length) + Array("\\u0041\"".utf8)
            case 9: out += Array(encoded(&r).utf8)
            default: out += run(1 + r.below(30))
            }
        }
        return out
    }

    func testFinderGivesTheReferenceSpansAtWordBoundaries() {
        var seen = 0
        for seed in 0..<4000 as Range<UInt64> {
            let bytes = Self.boundaryBuffer(seed: seed)
            seen += Self.assertSameAsReference(bytes, "boundary seed \(seed)")
        }
        XCTAssertGreaterThan(seen, 4000)
    }

    /// Each single piece at every offset around a word's end: the bitmaps carry a run, a
    /// colon's `a` and a run's start across the word boundary.
    func testPiecesAtEveryOffsetAroundAWordEnd() {
        let pieces = ["aWQ9cklzakdlNzg5", "abcdefghijklmnoP", "abcdefghijklmnO", "\\nAWQ9cklzakdlNzg5Nzg5", "\\\\AWQ9cklzakdlNzg5",
                      "data:text/plain;base64,aWQ9cklzakdlNzg5", "data:,%41%42%43%44%45%46%47%48", "x%41%42%43%44%45%46%47%48",
                      "\"\\u0041\\u0042\\u0043\\u0044\\u0045\\u0046\\u0047\\u0048\"", "%AWQ9cklzakdlNzg5",
                      "deadbeefdeadbeefdeadbeefdeadbee0", "0x00112233445566778899AABBCCDDEEFF"]
        var seen = 0
        for piece in pieces {
            for lead in 40..<(64 + 8) {
                for trail in ["", " ", "=", "a", "Abcdefghijklmnopqrst"] {
                    let bytes = Array(repeating: UInt8(ascii: " "), count: lead) + Array(piece.utf8) + Array(trail.utf8)
                    seen += Self.assertSameAsReference(bytes, "\(piece) at \(lead) before \(trail)")
                    let run = Array(repeating: UInt8(ascii: "a"), count: lead) + Array(piece.utf8) + Array(trail.utf8)
                    seen += Self.assertSameAsReference(run, "\(piece) after a run of \(lead)")
                }
            }
        }
        XCTAssertGreaterThan(seen, 1000)
    }

    /// A base64 value of text whose middle 8 characters are all lower case: the block walk
    /// before the bitmaps skipped it whenever those 8 were the one aligned block inside the
    /// run (a start 4 bytes past the block grid); the run rule finds it at every offset.
    func testValueWithALowerCaseMiddleIsFoundAtEveryOffset() {
        let value = Array("aWQ9OFJxbmtuelcySGxscDBE".utf8)
        for lead in 0..<130 {
            let bytes = Array(repeating: UInt8(ascii: " "), count: lead) + value + Array(" = 1\n".utf8)
            var budget = DecodeBudget(maxDepth: 1, bufferSize: bytes.count)
            var spans: [DecodedSpan] = []
            var finder = SpanFinder()
            bytes.withUnsafeBytes { finder.find($0, keepBinary: false, budget: &budget, into: &spans) }
            XCTAssertEqual(spans.map(\.sourceRange), [lead..<(lead + value.count)], "lead \(lead)")
            XCTAssertEqual(spans.first.map { String(decoding: $0.bytes, as: UTF8.self) }, "id=8RqnknzW2Hllp0D", "lead \(lead)")
        }
    }

    func testMayHoldEncodingMatchesTheByteWalk() {
        var r = Seeded(seed: 99)
        var held = 0
        for _ in 0..<20_000 {
            let count = r.below(80)
            // Mostly random bytes, with printable stretches of every length up to 14.
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: r.next()) }
            if count > 0 && r.below(2) == 0 {
                let at = r.below(count), length = min(count - at, r.below(15))
                for k in at..<at + length { bytes[k] = UInt8(0x20 + r.below(0x5F)) }
            }
            let fast = bytes.withUnsafeBufferPointer { TextCheck.mayHoldEncoding($0) }
            let reference = bytes.withUnsafeBufferPointer { ReferenceDecoding.mayHoldEncoding($0) }
            XCTAssertEqual(fast, reference, "\(bytes)")
            if reference { held += 1 }
        }
        XCTAssertGreaterThan(held, 1000)
    }
}
