import XCTest
import TestSupport
@testable import ObjectFiles

/// The word-at-a-time `UTF16Text.extract` gives exactly what the byte-by-byte reference
/// gives: the same decoded bytes and the same runs, on random buffers built to put run
/// edges everywhere relative to the 8-byte words the fast paths read (both of them: the
/// one for minimums of 8 and more, which passes over words whose zeros do not alternate,
/// and the one for shorter minimums).
final class UTF16TextEquivalenceTests: XCTestCase {
    /// TestSupport's SplitMix64: a fixed seed gives the same buffers on every machine, so a
    /// failure reproduces.
    typealias Generator = SeededGenerator

    /// The bytes at the edges of what counts as text, and 0.
    static let edges: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0x89, 0xA0, 0xFE, 0xFF]

    static func text(_ count: Int, _ g: inout Generator) -> [UInt8] {
        (0..<count).map { _ in
            switch g.next() % 16 {
            case 0: return 0x09
            case 1: return 0x20
            case 2: return 0x7E
            default: return UInt8(truncatingIfNeeded: 0x21 + g.next() % 0x5D)
            }
        }
    }

    /// One buffer: pieces of random bytes, edge bytes, zeros, ASCII text and UTF-16LE and
    /// UTF-16BE runs (some cut short, some with a non-text unit inside), of lengths 0 to 40,
    /// so runs start and end at every offset.
    static func buffer(_ g: inout Generator, pieces maxPieces: UInt64 = 12, length maxLength: UInt64 = 40) -> [UInt8] {
        var bytes: [UInt8] = []
        let pieces = Int(g.next() % maxPieces)
        for _ in 0..<pieces {
            let length = Int(g.next() % (maxLength + 1))
            switch g.next() % 8 {
            case 0: bytes += (0..<length).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            case 1: bytes += (0..<length).map { _ in edges[Int(g.next() % UInt64(edges.count))] }
            case 2: bytes += [UInt8](repeating: 0, count: length)
            case 3: bytes += text(length, &g)
            case 4, 5:
                let units = text(length, &g)
                var run: [UInt8] = []
                for unit in units { run += [unit, 0] }
                if g.next() % 4 == 0, !run.isEmpty { run[Int(g.next() % UInt64(run.count))] = edges[Int(g.next() % UInt64(edges.count))] }
                if g.next() % 3 == 0, !run.isEmpty { run.removeLast() }
                bytes += run
            default:
                let units = text(length, &g)
                var run: [UInt8] = []
                for unit in units { run += [0, unit] }
                if g.next() % 4 == 0, !run.isEmpty { run[Int(g.next() % UInt64(run.count))] = edges[Int(g.next() % UInt64(edges.count))] }
                if g.next() % 3 == 0, !run.isEmpty { run.removeFirst() }
                bytes += run
            }
        }
        return bytes
    }

    static func both(_ bytes: ArraySlice<UInt8>, minLength: Int) -> (fast: ([UInt8], [UTF16Text.Run]), reference: ([UInt8], [UTF16Text.Run])) {
        // Output appended after what is already there, as the scanner's transform reuses its arrays.
        var fastDecoded: [UInt8] = [0x2A], referenceDecoded: [UInt8] = [0x2A]
        var fastRuns: [UTF16Text.Run] = [], referenceRuns: [UTF16Text.Run] = []
        bytes.withUnsafeBytes { raw in
            UTF16Text.extract(raw, minLength: minLength, into: &fastDecoded, runs: &fastRuns)
            UTF16TextReference.extract(raw, minLength: minLength, into: &referenceDecoded, runs: &referenceRuns)
        }
        return ((fastDecoded, fastRuns), (referenceDecoded, referenceRuns))
    }

    func testRandomBuffersAtEveryAlignmentGiveTheReferenceOutput() {
        var g = Generator(seed: 0x6B65_7973_6861_7065)  // "keyshape"
        var compared = 0, withRuns = 0
        for round in 0..<3_000 {
            let bytes = UTF16TextEquivalenceTests.buffer(&g)
            // Every start within two words, and an odd or even cut at the end, so each run
            // edge falls at every offset relative to the words the fast path loads.
            for start in 0..<min(17, bytes.count + 1) {
                let end = bytes.count - Int(g.next() % 3)
                guard end >= start else { continue }
                let minLength = [1, 2, 3, 4, 8, 16][Int(g.next() % 6)]
                let (fast, reference) = UTF16TextEquivalenceTests.both(bytes[start..<end], minLength: minLength)
                compared += 1
                if !reference.1.isEmpty { withRuns += 1 }
                guard fast.0 == reference.0, fast.1 == reference.1 else {
                    return XCTFail("round \(round), bytes \(start)..<\(end) of \(bytes), minLength \(minLength): \(fast.1) against \(reference.1)")
                }
            }
        }
        // The buffers exercise what they should: most comparisons hold runs, some none.
        XCTAssertGreaterThan(compared, 30_000)
        XCTAssertGreaterThan(withRuns, compared / 2)
        XCTAssertLessThan(withRuns, compared)
    }

    /// Longer buffers at every offset within a word and a block, with the minimums that take
    /// the path for 8 code units and more (the default, 8; odd ones; past 32): runs of 8 to 40
    /// code units, just over and under each minimum, begin and end at every offset relative
    /// to the 8-byte grid that path tests, and the 16-byte unrolled step.
    func testLongBuffersWithMinimumsOfEightAndMoreGiveTheReferenceOutput() {
        var g = Generator(seed: 0x7574_6631_3673_7061)
        var compared = 0, withRuns = 0
        for round in 0..<1_500 {
            let bytes = UTF16TextEquivalenceTests.buffer(&g, pieces: 16, length: 90)
            for start in stride(from: 0, to: min(24, bytes.count + 1), by: 1) {
                let end = bytes.count - Int(g.next() % 9)
                guard end >= start else { continue }
                let minLength = [8, 8, 9, 11, 16, 21, 33, 40][Int(g.next() % 8)]
                let (fast, reference) = UTF16TextEquivalenceTests.both(bytes[start..<end], minLength: minLength)
                compared += 1
                if !reference.1.isEmpty { withRuns += 1 }
                guard fast.0 == reference.0, fast.1 == reference.1 else {
                    return XCTFail("round \(round), bytes \(start)..<\(end) of \(bytes), minLength \(minLength): \(fast.1) against \(reference.1)")
                }
            }
        }
        XCTAssertGreaterThan(compared, 20_000)
        XCTAssertGreaterThan(withRuns, compared / 3)
        XCTAssertLessThan(withRuns, compared)
    }

    /// A run of exactly the minimum at every offset in a field of bytes that are no text and
    /// no zero, and one code unit short of it: found, and not found, as the reference says
    /// (a segment of 16 bytes holds one whole grid word at most offsets, and at the others
    /// lies across two).
    func testRunsOfTheMinimumAtEveryOffset() {
        for minLength in [8, 9, 16] {
            for units in [minLength - 1, minLength] {
                for bigEndian in [false, true] {
                    for offset in 0..<40 {
                        var bytes = [UInt8](repeating: 0xC3, count: 96)
                        for u in 0..<units {
                            bytes[offset + 2 * u + (bigEndian ? 1 : 0)] = UInt8(0x41 + u % 26)
                            bytes[offset + 2 * u + (bigEndian ? 0 : 1)] = 0
                        }
                        let (fast, reference) = UTF16TextEquivalenceTests.both(bytes[...], minLength: minLength)
                        XCTAssertEqual(reference.1.count, units >= minLength ? 1 : 0)
                        if fast.0 != reference.0 || fast.1 != reference.1 {
                            return XCTFail("\(units) units at \(offset), big-endian \(bigEndian), minLength \(minLength): \(fast.1) against \(reference.1)")
                        }
                    }
                }
            }
        }
    }

    /// Every pair of byte values at every position of a word: the fast path's test for a
    /// code unit (bit tricks on 8 bytes at once) agrees with the byte-wise test for each.
    func testEveryBytePairAtEveryWordPosition() {
        for a in 0...255 {
            for b in 0...255 {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: 0xFF, count: 16)
                    bytes[position] = UInt8(a)
                    bytes[position + 1] = UInt8(b)
                    let (fast, reference) = UTF16TextEquivalenceTests.both(bytes[...], minLength: 1)
                    if fast.0 != reference.0 || fast.1 != reference.1 {
                        return XCTFail("bytes \(a), \(b) at \(position): \(fast.1) against \(reference.1)")
                    }
                }
            }
        }
    }

    /// Words of the boundary bytes in every combination of three positions: runs of two and
    /// three code units that start, end or cross a word edge.
    func testShortRunsAcrossWordEdges() {
        let values: [UInt8] = [0x00, 0x09, 0x1F, 0x20, 0x7E, 0x7F, 0xFF]
        var compared = 0
        for a in values { for b in values { for c in values { for d in values {
            for position in 4..<12 {
                var bytes = [UInt8](repeating: 0x00, count: 20)
                bytes[position] = a
                bytes[position + 1] = b
                bytes[position + 2] = c
                bytes[position + 3] = d
                for minLength in [1, 2] {
                    let (fast, reference) = UTF16TextEquivalenceTests.both(bytes[...], minLength: minLength)
                    compared += 1
                    if fast.0 != reference.0 || fast.1 != reference.1 {
                        return XCTFail("\([a, b, c, d]) at \(position), minLength \(minLength): \(fast.1) against \(reference.1)")
                    }
                }
            }
        } } } }
        XCTAssertEqual(compared, 7 * 7 * 7 * 7 * 8 * 2)
    }
}
