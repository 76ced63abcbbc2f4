import TOML
import XCTest

final class ScalarTests: XCTestCase {
    func testDecimalIntegers() {
        XCTAssertEqual(value("42"), .integer(42))
        XCTAssertEqual(value("+99"), .integer(99))
        XCTAssertEqual(value("-17"), .integer(-17))
        XCTAssertEqual(value("0"), .integer(0))
        XCTAssertEqual(value("+0"), .integer(0))
        XCTAssertEqual(value("-0"), .integer(0))
        XCTAssertEqual(value("1_000"), .integer(1000))
        XCTAssertEqual(value("5_349_221"), .integer(5_349_221))
        XCTAssertEqual(value("1_2_3_4_5"), .integer(12345))
    }

    func testIntegerLimits() {
        XCTAssertEqual(value("9223372036854775807"), .integer(.max))
        XCTAssertEqual(value("-9223372036854775808"), .integer(.min))
        XCTAssertEqual(value("0x7FFFFFFFFFFFFFFF"), .integer(.max))
    }

    func testPrefixedIntegers() {
        XCTAssertEqual(value("0xDEADBEEF"), .integer(0xDEADBEEF))
        XCTAssertEqual(value("0xdeadbeef"), .integer(0xDEADBEEF))
        XCTAssertEqual(value("0xdead_beef"), .integer(0xDEADBEEF))
        XCTAssertEqual(value("0x00ff"), .integer(255))
        XCTAssertEqual(value("0o01234567"), .integer(0o1234567))
        XCTAssertEqual(value("0o755"), .integer(0o755))
        XCTAssertEqual(value("0b11010110"), .integer(0b11010110))
        XCTAssertEqual(value("0b1_0"), .integer(2))
    }

    func testFloats() {
        XCTAssertEqual(value("+1.0"), .float(1.0))
        XCTAssertEqual(value("3.1415"), .float(3.1415))
        XCTAssertEqual(value("-0.01"), .float(-0.01))
        XCTAssertEqual(value("5e+22"), .float(5e22))
        XCTAssertEqual(value("1e06"), .float(1e6))
        XCTAssertEqual(value("-2E-2"), .float(-2e-2))
        XCTAssertEqual(value("6.626e-34"), .float(6.626e-34))
        XCTAssertEqual(value("224_617.445_991_228"), .float(224_617.445_991_228))
        XCTAssertEqual(value("0.0"), .float(0))
        XCTAssertEqual(value("0e0"), .float(0))
        XCTAssertEqual(value("1e1_0"), .float(1e10))
    }

    func testNegativeZeroKeepsItsSign() {
        guard case .float(let zero)? = value("-0.0") else { return XCTFail("not a float") }
        XCTAssertEqual(zero.sign, .minus)
    }

    func testSpecialFloats() {
        XCTAssertEqual(value("inf"), .float(.infinity))
        XCTAssertEqual(value("+inf"), .float(.infinity))
        XCTAssertEqual(value("-inf"), .float(-.infinity))
        for literal in ["nan", "+nan", "-nan"] {
            guard case .float(let number)? = value(literal) else { return XCTFail("\(literal) is not a float") }
            XCTAssertTrue(number.isNaN, literal)
        }
        XCTAssertEqual(value("nan"), .float(.nan), "nan must equal nan so documents equal themselves")
    }

    func testDoubleValueAcceptsIntegers() {
        XCTAssertEqual(value("3")?.doubleValue, 3)
        XCTAssertEqual(value("3.5")?.doubleValue, 3.5)
        XCTAssertNil(value("3")?.stringValue)
        XCTAssertEqual(value("3")?.integerValue, 3)
        XCTAssertNil(value("3.5")?.integerValue)
        XCTAssertNil(value("'3'")?.doubleValue)
    }

    func testBooleans() {
        XCTAssertEqual(value("true"), .boolean(true))
        XCTAssertEqual(value("false"), .boolean(false))
        XCTAssertEqual(value("true")?.boolValue, true)
        XCTAssertNil(value("1")?.boolValue)
        XCTAssertEqual(parse("a=true#c\nb=[false,true]")["b"], .array([.boolean(false), .boolean(true)]))
    }

    func testDateTimesAreKeptAsWritten() {
        let cases = [
            "1979-05-27T07:32:00Z",
            "1979-05-27T00:32:00-07:00",
            "1979-05-27T00:32:00.999999+05:30",
            "1979-05-27t07:32:00z",
            "1979-05-27 07:32:00Z",
            "1979-05-27T07:32:00",
            "1979-05-27T00:32:00.5",
            "1979-05-27",
            "07:32:00",
            "00:32:00.999999",
            "2024-02-29",
            "1990-12-31T23:59:60Z",
        ]
        for literal in cases {
            XCTAssertEqual(value(literal), .datetime(literal), literal)
        }
    }

    func testDateTimeInArraysAndBeforeComments() {
        let table = parse("d = [1979-05-27, 1979-05-27 07:32:00, 07:32:00] # when\nt = 1979-05-27 # date only\n")
        XCTAssertEqual(table["d"], .array([.datetime("1979-05-27"), .datetime("1979-05-27 07:32:00"), .datetime("07:32:00")]))
        XCTAssertEqual(table["t"], .datetime("1979-05-27"))
        XCTAssertEqual(table["t"]?.typeName, "datetime")
    }

    func testTypeNames() {
        let table = parse("""
        s = ""
        i = 1
        f = 1.5
        b = true
        d = 1979-05-27
        a = []
        t = {}
        """)
        let names = table.keys.map { table[$0]!.typeName }
        XCTAssertEqual(names, ["string", "integer", "float", "boolean", "datetime", "array", "table"])
    }
}
