@testable import Decoders
import CByteMasks
import Foundation
import TestSupport
import XCTest

/// The candidate search's C pass: every implementation the processor runs (scalar, SSE2, AVX2,
/// AVX-512) gives the scalar one's bitmaps and run list; the check that drops a base64
/// candidate from its first characters agrees with its plain definition
/// (`ReferenceDecoding.dropsUnread`) at every tier, and never drops a candidate whose decode
/// the finder would keep; and the finder at every tier gives the reference finder's spans.
final class CandidateSearchTests: XCTestCase {
    typealias Seeded = SeededGenerator

    /// Every tier this processor runs, scalar first.
    static var tiers: [Int32] { SpanFinder.availableTiers }

    struct PassResult: Equatable {
        var run: [UInt64], stops: [UInt64]
        var runs: [[UInt64]]
        /// The words of `stops` that hold a stop (`keyshape_stop_words`).
        var stopWords: [UInt32]
    }

    static func pass(_ bytes: [UInt8], tier: Int32, keepBinary: Bool) -> PassResult {
        let n = bytes.count
        let words = keyshape_masks_words(n)
        var masks = [UInt64](repeating: 0xDEAD_BEEF, count: 4 * words)
        var out = [keyshape_run_candidate](repeating: keyshape_run_candidate(), count: n / 16 + 1)
        let count = bytes.withUnsafeBufferPointer { b in
            masks.withUnsafeMutableBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    let run = m.baseAddress!
                    return keyshape_find_runs_with(tier, b.baseAddress, n, keepBinary ? 1 : 0, run, run + words, run + 2 * words,
                                                   o.baseAddress!)
                }
            }
        }
        var stopWords = [UInt32](repeating: 0xDEAD, count: words)
        let stopWordCount = masks.withUnsafeBufferPointer { m in
            stopWords.withUnsafeMutableBufferPointer { keyshape_stop_words_with(tier, m.baseAddress! + words, words, $0.baseAddress!) }
        }
        return PassResult(run: Array(masks[0..<words]), stops: Array(masks[words..<2 * words]),
                          runs: out[0..<count].map { [$0.start, $0.end, UInt64($0.flags)] },
                          stopWords: Array(stopWords[0..<stopWordCount]))
    }

    /// Buffers for the pass: the finder's seeded source-like buffers, its word-boundary ones,
    /// random bytes, and long buffers whose runs cross the pass's blocks of 256 words.
    static func passBuffers() -> [[UInt8]] {
        var buffers: [[UInt8]] = []
        for seed in 0..<300 as Range<UInt64> {
            buffers.append(SpanFinderEquivalenceTests.buffer(seed: seed))
            buffers.append(SpanFinderEquivalenceTests.boundaryBuffer(seed: seed))
        }
        var r = Seeded(seed: 5)
        for count in 0..<200 { buffers.append(r.bytes(count)) }
        for seed in 0..<6 as Range<UInt64> {
            var long: [UInt8] = []
            var g = Seeded(seed: 100 + seed)
            while long.count < 40_000 {
                long += SpanFinderEquivalenceTests.buffer(seed: seed &* 7 &+ UInt64(long.count))
                // A run of 16 to 300 characters, often across a block's end (every 16 KiB).
                long += (0..<(16 + g.below(285))).map { _ in g.pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8)) }
            }
            buffers.append(long)
        }
        // Every byte value before a colon, between stop characters and next to run characters,
        // at every offset of a vector step (the vector tiers classify bytes by table lookups
        // of their nibbles and read the byte before a colon from a second load).
        var everyByte: [UInt8] = []
        for b in 0...255 as ClosedRange<UInt8> {
            everyByte += [b, UInt8(ascii: ":"), UInt8(ascii: "\\"), b, UInt8(ascii: "%"), b, UInt8(ascii: "a"), b, UInt8(ascii: "A"), UInt8(ascii: ":")]
        }
        for shift in 0..<3 { buffers.append(Array(repeating: UInt8(ascii: "Q"), count: shift) + everyByte) }
        // Long runs without a strong byte (hex letters alone, which the finder keeps, and
        // lower case with signs), some given one strong byte at the start, the end or between,
        // across words: what decides whether a run is listed at all.
        for seed in 0..<40 as Range<UInt64> {
            var g = Seeded(seed: 500 + seed)
            var bytes: [UInt8] = []
            while bytes.count < 6_000 {
                let alphabet = g.pick([Array("abcdef".utf8), Array("abcdefghijklmnopqrstuvwxyz+/".utf8), Array("abcdefghijklmnopqrstuvwxyz-_".utf8)])
                var run = (0..<(SpanFinder.minimumBase64Length - 6 + g.below(300))).map { _ in g.pick(alphabet) }
                switch g.below(4) {
                case 0: run[0] = UInt8(ascii: "Q")
                case 1: run[run.count - 1] = UInt8(ascii: "7")
                case 2: run[g.below(run.count)] = UInt8(ascii: "Z")
                default: break
                }
                bytes += run + [g.pick(Array(" \n.\"=".utf8))]
            }
            buffers.append(bytes)
        }
        // Runs of hex digits alone (with a strong byte: a digit or an upper-case A-F), 14 to
        // 40 long, odd and even, some followed by `=` (then read as base64) and some at the
        // buffer's end: the list leaves out those the finder passes over (shorter than a hex
        // value or of odd length, no `=` after them).
        for seed in 0..<40 as Range<UInt64> {
            var g = Seeded(seed: 700 + seed)
            var bytes: [UInt8] = []
            while bytes.count < 3_000 {
                let alphabet = g.pick([Array("0123456789abcdef".utf8), Array("0123456789ABCDEF".utf8), Array("0123456789".utf8)])
                bytes += (0..<(14 + g.below(27))).map { _ in g.pick(alphabet) }
                // Now and then none: two runs join, or the last one ends the buffer.
                if g.below(8) > 0 { bytes += [g.pick(Array(" \n.\"=;".utf8))] }
            }
            buffers.append(bytes)
        }
        return buffers
    }

    func testEveryTierGivesTheScalarPass() {
        let tiers = Self.tiers
        var runsSeen = 0
        for (index, bytes) in Self.passBuffers().enumerated() {
            for keepBinary in [false, true] {
                let scalar = Self.pass(bytes, tier: 0, keepBinary: keepBinary)
                runsSeen += scalar.runs.count
                for tier in tiers.dropFirst() where Self.pass(bytes, tier: tier, keepBinary: keepBinary) != scalar {
                    XCTFail("buffer \(index) (\(bytes.count) bytes), keepBinary \(keepBinary): tier \(tier) differs from the scalar pass")
                }
            }
        }
        XCTAssertGreaterThan(runsSeen, 1000)
        // The scalar tier's list of stop words is its plain definition.
        var stopWordsSeen = 0
        for bytes in Self.passBuffers() {
            let scalar = Self.pass(bytes, tier: 0, keepBinary: false)
            XCTAssertEqual(scalar.stopWords, scalar.stops.indices.filter { scalar.stops[$0] != 0 }.map { UInt32($0) })
            stopWordsSeen += scalar.stopWords.count
        }
        XCTAssertGreaterThan(stopWordsSeen, 1000)
        // The x86-64 machines this runs on have SSE2 at least: the vector code was compared.
        #if arch(x86_64)
        XCTAssertGreaterThanOrEqual(keyshape_masks_hardware_tier(), Int32(KEYSHAPE_MASKS_SSE2))
        #endif
    }

    /// A run's start, end and what it holds, against a byte loop; and only runs with a strong
    /// byte, long enough, from their first byte, are listed.
    func testListedRunsAreTheLongRunsWithAStrongByte() {
        // The first seeded buffers, and the runs without a strong byte and of hex digits alone.
        let buffers = Self.passBuffers()
        var passedOverCount = 0
        for (index, bytes) in (Array(buffers.prefix(200)) + buffers.suffix(80)).enumerated() {
            // keepBinary true and a buffer without base64 of text: what is listed is what the
            // C check kept, so compare with the byte loop's long runs that have a strong byte.
            let listed = Self.pass(bytes, tier: Int32(keyshape_masks_hardware_tier()), keepBinary: true).runs
            let t = ByteClass.table
            var expected: [[UInt64]] = []
            var i = 0
            while i < bytes.count {
                guard t[Int(bytes[i])] & ByteClass.run != 0 else { i += 1; continue }
                var flags: UInt16 = 0
                let start = i
                while i < bytes.count && t[Int(bytes[i])] & ByteClass.run != 0 { flags |= t[Int(bytes[i])]; i += 1 }
                guard i - start >= SpanFinder.minimumBase64Length, flags & ByteClass.strong != 0 else { continue }
                let mine = (flags & ByteClass.notHex != 0 ? UInt64(KEYSHAPE_RUN_NOT_HEX) : 0)
                    | (flags & ByteClass.standardOnly != 0 ? UInt64(KEYSHAPE_RUN_STANDARD_ONLY) : 0)
                    | (flags & ByteClass.urlOnly != 0 ? UInt64(KEYSHAPE_RUN_URL_ONLY) : 0)
                expected.append([UInt64(start), UInt64(i), mine])
            }
            // Every listed run is one of them; those left out were dropped by the check.
            let expectedSet = Set(expected)
            for run in listed where !expectedSet.contains(run) { XCTFail("buffer \(index): listed \(run), no such run") }
            for run in expected where !listed.contains(run) {
                let start = Int(run[0]), end = Int(run[1])
                let plain = run[2] & UInt64(KEYSHAPE_RUN_NOT_HEX) != 0 && run[2] & 6 != 6
                    && !(bytes[start] == UInt8(ascii: "0") && bytes[start + 1] | 0x20 == UInt8(ascii: "x"))
                let dropped = bytes.withUnsafeBufferPointer { ReferenceDecoding.dropsUnread($0.baseAddress!, start, end, keepBinary: true) }
                // Hex digits alone, too short for a hex value or of odd length, and no `=`
                // after them: `considerRun` returns without reading them.
                let passedOver = run[2] & UInt64(KEYSHAPE_RUN_NOT_HEX) == 0
                    && (end - start < SpanFinder.minimumHexLength || (end - start) % 2 == 1)
                    && !(end < bytes.count && bytes[end] == UInt8(ascii: "="))
                XCTAssertTrue((plain && dropped) || passedOver, "buffer \(index): run \(run) left out, yet the finder would look at it")
                if passedOver { passedOverCount += 1 }
            }
        }
        XCTAssertGreaterThan(passedOverCount, 500, "the hex buffers' short and odd runs are left out")
    }

    // MARK: dropping a candidate from its first characters

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// One base64 candidate (padding kept), of a kind picked at random: identifiers, base64
    /// of ASCII and of UTF-8 text (multi-byte characters at the start and across the 12th
    /// byte), of text with a few bad bytes (around `decoded / 16`), of random bytes, of random
    /// bytes with printable stretches around 10, long values past 62 quanta.
    static func candidate(_ r: inout Seeded) -> String {
        func text(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(0x20 + r.below(0x5F)) } }
        func utf8(_ count: Int) -> [UInt8] {
            var out: [UInt8] = []
            let pieces = ["é", "日本", "😀", "ß", "a", "Z", "0", "=", " ", "\n", "\t", "ü", "€"]
            while out.count < count { out += Array(r.pick(pieces).utf8) }
            return out
        }
        func encode(_ bytes: [UInt8]) -> String {
            var s = Data(bytes).base64EncodedString()
            switch r.below(3) {
            case 0: s = s.replacingOccurrences(of: "=", with: "")
            case 1: s = s.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            default: break
            }
            return s
        }
        switch r.below(9) {
        case 0:
            let words = ["get", "Element", "By", "Tag", "Name", "ossl", "check", "OPENSSL", "_", "sk", "TYPE", "V2", "3", "x", "Py", "Object",
                         "HEAD", "ILLEGAL", "SEQUENCE", "9", "Zz", "w", "f"]
            var s = ""
            while s.utf8.count < 16 + r.below(40) { s += r.pick(words) }
            return s
        case 1: return encode(text(12 + r.below(60)))
        case 2:
            var bytes = utf8(12 + r.below(50))
            if r.below(2) == 0 { bytes = text(r.below(14)) + bytes }
            return encode(bytes)
        case 3:
            var bytes = text(12 + r.below(90))
            for _ in 0..<r.below(5) { bytes[r.below(bytes.count)] = UInt8(r.below(0x20)) }
            if r.below(3) == 0 { bytes[r.below(min(12, bytes.count))] = UInt8(0x80 + r.below(0x80)) }
            return encode(bytes)
        case 4: return encode(r.bytes(12 + r.below(60)))
        case 5:
            var bytes = r.bytes(12 + r.below(60))
            let length = 6 + r.below(9), at = r.below(max(1, bytes.count - length))
            for k in at..<min(bytes.count, at + length) { bytes[k] = UInt8(0x20 + r.below(0x5F)) }
            return encode(bytes)
        case 6:
            // Upper-case runs with lead streaks, and random base64 characters.
            return String(decoding: (0..<(16 + r.below(40))).map { _ in r.pick(Array("IJKLMNOPQRSTUVWXYZabcdefABCDGH0123+/".utf8)) },
                          as: UTF8.self)
        case 7:
            var bytes = r.bytes(190 + r.below(60))
            if r.below(2) == 0 { for k in stride(from: r.below(40), to: bytes.count, by: 3) { bytes[k] = UInt8(0x20 + r.below(0x5F)) } }
            return encode(bytes)
        default:
            return String(decoding: (0..<(16 + r.below(60))).map { _ in r.pick(alphabet) }, as: UTF8.self)
        }
    }

    /// The candidate in a line of source, where it starts and where it ends (padding included).
    static func placed(_ candidate: String, _ r: inout Seeded) -> (bytes: [UInt8], from: Int, end: Int) {
        let lead = r.pick(["", " ", "token = \"", "x:", "\t\t"])
        let bytes = Array((lead + candidate + r.pick(["", "\"", " ", "\n"])).utf8)
        return (bytes, lead.utf8.count, lead.utf8.count + candidate.utf8.count)
    }

    func testDropsAgreeWithTheirDefinitionAtEveryTier() {
        var r = Seeded(seed: 42)
        var dropped = 0, kept = 0
        for _ in 0..<30_000 {
            let c = Self.candidate(&r)
            let (bytes, from, end) = Self.placed(c, &r)
            var stop = end
            while stop > from && bytes[stop - 1] == UInt8(ascii: "=") { stop -= 1 }
            let count = stop - from
            guard count >= 16 else { continue }
            for keepBinary in [false, true] {
                let reference = bytes.withUnsafeBufferPointer { ReferenceDecoding.dropsUnread($0.baseAddress!, from, end, keepBinary: keepBinary) }
                if reference { dropped += 1 } else { kept += 1 }
                for tier in Self.tiers {
                    let c = bytes.withUnsafeBufferPointer { b in
                        keyshape_base64_drops_with(tier, b.baseAddress, from, count, keepBinary ? 1 : 0) != 0
                    }
                    if c != reference {
                        XCTFail("tier \(tier), keepBinary \(keepBinary): drops \(c), its definition \(reference), for a \(count)-character candidate")
                        return
                    }
                }
            }
        }
        XCTAssertGreaterThan(dropped, 10_000)
        XCTAssertGreaterThan(kept, 10_000)
    }

    /// A long base64 value (a megabyte, as in a bundled asset) costs each lister linear work:
    /// the AVX-512 lister's start search one read per word once, at the value's end, not a
    /// search back from every word; the other tiers' listers search no start back at all.
    /// Every tier the processor runs is checked, and lists what the scalar pass lists.
    func testTheStartSearchStaysLinearInALongValue() {
        var r = Seeded(seed: 3)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let bytes = Array("data = \"".utf8) + (0..<(1 << 20)).map { _ in r.pick(alphabet) } + Array("\"\n".utf8)
        let scalar = Self.pass(bytes, tier: 0, keepBinary: true)
        XCTAssertEqual(scalar.runs.count, 1, "the value is one run")
        for tier in Self.tiers.dropFirst() {
            let before = keyshape_masks_backward_words()
            let result = Self.pass(bytes, tier: tier, keepBinary: true)
            let read = keyshape_masks_backward_words() - before
            XCTAssertEqual(result, scalar, "tier \(tier)")
            if tier == Int32(KEYSHAPE_MASKS_AVX512) {
                XCTAssertGreaterThan(read, 0, "the value's one end searched back")
                XCTAssertLessThanOrEqual(read, UInt64(bytes.count / 64 + 1), "more than one read per word")
            } else {
                XCTAssertEqual(read, 0, "tier \(tier) searched back")
            }
        }
        #if arch(x86_64)
        XCTAssertGreaterThan(Self.tiers.count, 1, "a vector tier was checked")
        #endif
    }

    /// The AVX-512 lister reads the first bytes of four runs in one register: lines of the
    /// check's candidates (UTF-8 leads and continuation bytes across the 12th byte, bad bytes
    /// around `decoded / 16`) put every kind in every lane, against the scalar pass.
    func testTheRunListerAgreesOnCandidatesInEveryLane() {
        var r = Seeded(seed: 11)
        var listed = 0, left = 0
        for _ in 0..<400 {
            var line = ""
            let candidates = 4 + r.below(40)
            for _ in 0..<candidates { line += Self.candidate(&r) + r.pick([" ", "\n", "\\", "\"", "."]) }
            let bytes = Array(line.utf8)
            for keepBinary in [false, true] {
                let scalar = Self.pass(bytes, tier: 0, keepBinary: keepBinary)
                for tier in Self.tiers.dropFirst() where Self.pass(bytes, tier: tier, keepBinary: keepBinary) != scalar {
                    XCTFail("line of \(bytes.count) bytes, keepBinary \(keepBinary): tier \(tier) differs from the scalar pass")
                    return
                }
                listed += scalar.runs.count
                left += candidates - scalar.runs.count
            }
        }
        // Both outcomes are common, so a lane that decided wrong would show.
        XCTAssertGreaterThan(listed, 5_000)
        XCTAssertGreaterThan(left, 5_000)
    }

    func testADroppedCandidateIsNeverOneTheFinderKeeps() {
        var r = Seeded(seed: 7)
        var dropped = 0, nearMisses = 0
        for _ in 0..<30_000 {
            let c = Self.candidate(&r)
            let (bytes, from, end) = Self.placed(c, &r)
            for keepBinary in [false, true] {
                let drop = bytes.withUnsafeBufferPointer { ReferenceDecoding.dropsUnread($0.baseAddress!, from, end, keepBinary: keepBinary) }
                var decoded: [UInt8] = []
                let valid = bytes.withUnsafeBufferPointer { ReferenceDecoding.base64($0.baseAddress!, from..<end, into: &decoded) }
                let keep = valid && decoded.withUnsafeBufferPointer {
                    (TextCheck.isText($0) && TextCheck.isWorthMatching($0)) || (keepBinary && ReferenceDecoding.mayHoldEncoding($0))
                }
                if drop {
                    dropped += 1
                    XCTAssertFalse(keep, "keepBinary \(keepBinary): a candidate the finder keeps was dropped unread")
                } else if valid && !keep {
                    nearMisses += 1
                }
            }
        }
        // Both sides of the check are exercised: most candidates dropped unread, and some
        // that only the whole decode rules out.
        XCTAssertGreaterThan(dropped, 10_000)
        XCTAssertGreaterThan(nearMisses, 100)
    }

    /// The finder at every tier gives the reference finder's spans and budget.
    func testFinderAtEveryTierGivesTheReferenceSpans() {
        var seen = 0
        for tier in Self.tiers {
            for seed in 0..<600 as Range<UInt64> {
                let bytes = seed % 2 == 0 ? SpanFinderEquivalenceTests.buffer(seed: seed) : SpanFinderEquivalenceTests.boundaryBuffer(seed: seed)
                seen += SpanFinderEquivalenceTests.assertSameAsReference(bytes, "tier \(tier), seed \(seed)", tier: tier)
            }
        }
        XCTAssertGreaterThan(seen, 1000)
    }
}
