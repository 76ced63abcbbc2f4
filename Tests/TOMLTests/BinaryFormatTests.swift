import XCTest
import TestSupport
@testable import TOML

/// TOMLBinaryWriter / TOMLBinaryReader: the form the builtin rule pack is embedded in.
final class BinaryFormatTests: XCTestCase {
    let document = """
    title = "every kind of value"
    empty = ""
    unicode = "caf\\u00e9 \\u2603 \\U0001F600 tab\\tquote\\"nul\\u0000"
    big = 9223372036854775807
    small = -9223372036854775808
    minus = -1
    zero = 0
    pi = 3.141592653589793
    negzero = -0.0
    inf = inf
    nan = nan
    yes = true
    no = false
    when = 1979-05-27T07:32:00Z
    day = 1979-05-27
    list = [1, "two", 3.0, [true, []], { inline = "t" }]
    "quoted key \\u00fc" = 1

    [nested.deeper]
    x = 1

    [[rules]]
    id = "a"
    keywords = ["k1", "k2"]

    [[rules.allowlists]]
    regexes = ['''\\bEXAMPLE\\b''']

    [[rules]]
    id = "b"
    emptyTable = {}
    """

    func roundTrip(_ table: TOMLTable) throws -> TOMLTable {
        try TOMLBinaryReader.decode(TOMLBinaryWriter.encode(table))
    }

    func testRoundTripGivesAnEqualTableWithTheSamePositions() throws {
        let parsed = parse(document)
        let decoded = try roundTrip(parsed)
        XCTAssertEqual(decoded, parsed)
        XCTAssertEqual(decoded.keys, parsed.keys, "key order is kept")
        XCTAssertEqual(TOMLPositions.differences(decoded, parsed), [])
        XCTAssertEqual(decoded["small"]?.integerValue, Int64.min)
        XCTAssertEqual(decoded["negzero"]?.doubleValue?.sign, .minus)
        XCTAssertTrue(decoded["nan"]?.doubleValue?.isNaN ?? false)
        XCTAssertEqual(decoded["when"], .datetime("1979-05-27T07:32:00Z"))
        XCTAssertEqual(decoded["unicode"]?.stringValue?.unicodeScalars.last, "\u{0}")
    }

    func testTablesBuiltInCodeRoundTripWithoutPositions() throws {
        var t = TOMLTable()
        t["b"] = .integer(2)
        t["a"] = .table(TOMLTable())
        let decoded = try roundTrip(t)
        XCTAssertEqual(decoded, t)
        XCTAssertEqual(decoded.keys, ["b", "a"])
        XCTAssertNil(decoded.position)
        XCTAssertNil(decoded.position(of: "b"))
    }

    func testATableOverTheIndexThresholdStillFindsItsKeys() throws {
        var t = TOMLTable()
        for i in 0..<100 { t["k\(i)"] = .integer(Int64(i)) }
        let decoded = try roundTrip(t)
        XCTAssertEqual(decoded["k77"], .integer(77))
        XCTAssertEqual(decoded, t)
    }

    /// The generated source embeds the bytes as a string literal: that needs valid UTF-8.
    func testEncodingIsValidUTF8() {
        let bytes = TOMLBinaryWriter.encode(parse(document))
        XCTAssertNotNil(String(validating: bytes, as: UTF8.self))
    }

    func testEveryTruncationIsAnErrorNotATrap() {
        let bytes = TOMLBinaryWriter.encode(parse(document))
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try TOMLBinaryReader.decode(Array(bytes[..<length])), "length \(length)")
        }
        XCTAssertThrowsError(try TOMLBinaryReader.decode(bytes + [0])) { error in
            XCTAssertTrue("\(error)".contains("after the table"), "\(error)")
        }
    }

    func testDamagedBytesNeverTrap() {
        let bytes = TOMLBinaryWriter.encode(parse(document))
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if (try? TOMLBinaryReader.decode(damaged)) == nil { rejected += 1 }
        }
        // Most damage lands in a tag, count or string and is caught; the rest decodes to
        // some other table, which is fine: the point is that nothing traps.
        XCTAssertGreaterThan(rejected, 0)
    }

    func testHostileCountsAndNestingAreErrors() {
        let magic = Array("KSTB1".utf8)
        // A table claiming 2^60 keys in a few bytes: refused before any allocation.
        XCTAssertThrowsError(try TOMLBinaryReader.decode(magic + [0, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x0F]))
        // A number longer than 64 bits.
        XCTAssertThrowsError(try TOMLBinaryReader.decode(magic + [0] + [UInt8](repeating: 0x7F, count: 12) + [0]))
        // Nesting past the bound: a table holding a table holding ... 10,000 deep.
        var deep = magic
        for _ in 0..<10_000 { deep += [0, 1, 1, 0x78, 0, 0x54] }
        deep += [0, 0]
        XCTAssertThrowsError(try TOMLBinaryReader.decode(deep)) { error in
            XCTAssertTrue("\(error)".contains("nested deeper"), "\(error)")
        }
        // Invalid UTF-8 in a key, a duplicate key, an unknown tag, a wrong magic.
        XCTAssertThrowsError(try TOMLBinaryReader.decode(magic + [0, 1, 1, 0xFF, 0, 0x74]))
        XCTAssertThrowsError(try TOMLBinaryReader.decode(magic + [0, 2, 1, 0x78, 0, 0x74, 1, 0x78, 0, 0x6E])) { error in
            XCTAssertTrue("\(error)".contains("duplicate key"), "\(error)")
        }
        XCTAssertThrowsError(try TOMLBinaryReader.decode(magic + [0, 1, 1, 0x78, 0, 0x5A]))
        XCTAssertThrowsError(try TOMLBinaryReader.decode(Array("KSTB2".utf8) + [0, 0]))
        // The smallest valid encoding: an empty table.
        XCTAssertEqual(try TOMLBinaryReader.decode(magic + [0, 0]), TOMLTable())
    }

    func testErrorsQuoteNoBytes() {
        let secretish = "sk-not-a-real-key-0123456789"
        var bytes = TOMLBinaryWriter.encode(parse("k = \"\(secretish)\"\n"))
        bytes.append(0x41)
        XCTAssertThrowsError(try TOMLBinaryReader.decode(bytes)) { error in
            XCTAssertFalse("\(error)".contains("sk-not"), "\(error)")
        }
    }
}
