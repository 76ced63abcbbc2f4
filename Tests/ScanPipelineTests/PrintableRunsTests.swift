import XCTest
import FileInputs
import TestSupport

/// The 64-bytes-at-a-time mask gives exactly the byte-at-a-time one's output: random buffers
/// of every printable density, lengths around the block size, every `minLength` from 0 to
/// past 64, runs touching both ends.
final class PrintableRunsTests: XCTestCase {
    func testBlockMaskEqualsTheBytewiseMask() {
        var g = SeededGenerator(seed: 0x243F_6A88_85A3_08D3)
        var cases = 0
        for length in [0, 1, 7, 63, 64, 65, 127, 128, 129, 200, 1000, 4099] {
            for density in [0, 30, 60, 85, 95, 100] {
                for minLength in [0, 1, 2, 3, 7, 8, 9, 16, 33, 63, 64, 65, 100] {
                    // Printable bytes (and tabs) with the given share, runs of random lengths.
                    var bytes = [UInt8](repeating: 0, count: length)
                    var i = 0
                    while i < length {
                        let run = g.int(in: 1...24)
                        let printable = g.below(100) < density
                        for j in i..<min(length, i + run) {
                            let r = g.next()
                            bytes[j] = printable ? (r % 17 == 0 ? 0x09 : UInt8(0x20 + r % 95)) : [0x00, 0x7f, 0x80, 0xff, 0x0a, 0x1f, UInt8(r & 0xff)][Int(r % 7)]
                            if !printable, PrintableRunsTests.isPrintable(bytes[j]) { bytes[j] = 0 }
                        }
                        i += run
                    }
                    var want = [UInt8](repeating: 0xEE, count: length)
                    var got = [UInt8](repeating: 0xEE, count: length)
                    bytes.withUnsafeBytes { src in
                        want.withUnsafeMutableBytes { PrintableRuns.maskBytewise(src, into: $0, minLength: minLength) }
                        got.withUnsafeMutableBytes { PrintableRuns.mask(src, into: $0, minLength: minLength) }
                    }
                    XCTAssertEqual(got, want, "length \(length), density \(density), minLength \(minLength)")
                    cases += 1
                }
            }
        }
        XCTAssertEqual(cases, 12 * 6 * 13)
    }

    static func isPrintable(_ b: UInt8) -> Bool { (b >= 0x20 && b < 0x7F) || b == 0x09 }
}
