import TOML
import XCTest

/// The value types as other modules use them directly.
final class APITests: XCTestCase {
    func testTableSubscriptAppendsReplacesAndRemoves() {
        var table = TOMLTable()
        XCTAssertTrue(table.isEmpty)
        table["b"] = .integer(1)
        table["a"] = .string("x")
        XCTAssertEqual(table.keys, ["b", "a"])
        table["b"] = .integer(2)
        XCTAssertEqual(table.keys, ["b", "a"], "replacing keeps the key in place")
        XCTAssertEqual(table["b"], .integer(2))
        table["b"] = nil
        XCTAssertEqual(table.keys, ["a"])
        XCTAssertNil(table["b"])
        table["b"] = .boolean(true)
        XCTAssertEqual(table.keys, ["a", "b"])
        XCTAssertEqual(table.count, 2)
        table["missing"] = nil
        XCTAssertEqual(table.count, 2)
    }

    func testProgrammaticKeysHaveNoPosition() {
        var table = parse("a = 1\n")
        table["b"] = .integer(2)
        XCTAssertEqual(table.position(of: "a"), TOMLPosition(line: 1, column: 1))
        XCTAssertNil(table.position(of: "b"))
        table["a"] = .integer(3)
        XCTAssertEqual(table.position(of: "a"), TOMLPosition(line: 1, column: 1), "the key is still where it was written")
        table.position = TOMLPosition(line: 9, column: 9)
        XCTAssertEqual(table.position, TOMLPosition(line: 9, column: 9))
    }

    func testEqualityIgnoresOrderAndPositions() {
        let parsed = parse("\n\nb = 2\na = 1\n")
        var built = TOMLTable()
        built["a"] = .integer(1)
        built["b"] = .integer(2)
        XCTAssertEqual(parsed, built)
        built["b"] = .integer(3)
        XCTAssertNotEqual(parsed, built)
        built["b"] = .integer(2)
        built["c"] = .integer(0)
        XCTAssertNotEqual(parsed, built)
        XCTAssertNotEqual(TOMLValue.integer(1), .float(1), "an integer is not a float")
        XCTAssertNotEqual(TOMLValue.string("1979-05-27"), .datetime("1979-05-27"))
        XCTAssertNotEqual(TOMLValue.array([.integer(1)]), .array([.integer(1), .integer(1)]))
    }

    func testAccessorsReturnNilForOtherCases() {
        let all: [TOMLValue] = [.string("s"), .integer(1), .float(1.5), .boolean(true), .datetime("07:32:00"),
                                .array([]), .table(TOMLTable())]
        XCTAssertEqual(all.map { $0.stringValue != nil }, [true, false, false, false, false, false, false])
        XCTAssertEqual(all.map { $0.integerValue != nil }, [false, true, false, false, false, false, false])
        XCTAssertEqual(all.map { $0.doubleValue != nil }, [false, true, true, false, false, false, false])
        XCTAssertEqual(all.map { $0.boolValue != nil }, [false, false, false, true, false, false, false])
        XCTAssertEqual(all.map { $0.datetimeValue != nil }, [false, false, false, false, true, false, false])
        XCTAssertEqual(all.map { $0.arrayValue != nil }, [false, false, false, false, false, true, false])
        XCTAssertEqual(all.map { $0.tableValue != nil }, [false, false, false, false, false, false, true])
        XCTAssertEqual(all.map(\.typeName), ["string", "integer", "float", "boolean", "datetime", "array", "table"])
    }

    func testPositionAndErrorValueSemantics() {
        let position = TOMLPosition(line: 2, column: 3)
        XCTAssertEqual(Set([position, TOMLPosition(line: 2, column: 3)]).count, 1)
        XCTAssertEqual(position.description, "2:3")
        let error = TOMLError(file: "f", line: 2, column: 3, message: "m")
        XCTAssertEqual(error.position, position)
        XCTAssertEqual(error, TOMLError(file: "f", line: 2, column: 3, message: "m"))
        XCTAssertNotEqual(error, TOMLError(file: "f", line: 2, column: 4, message: "m"))
    }

    func testDebugDescriptionIsInlineTOML() {
        let table = parse("id = 'x'\nlist = [1, 2.5, true]\n[sub]\nq = \"a\\\"b\"\n")
        XCTAssertEqual(String(reflecting: table), #"{ id = "x", list = [1, 2.5, true], sub = { q = "a\"b" } }"#)
        XCTAssertEqual(String(reflecting: TOMLValue.datetime("07:32:00")), "07:32:00")
        XCTAssertEqual(String(reflecting: TOMLTable()), "{}")
    }

    func testErrorsCarryTheFileName() {
        XCTAssertThrowsError(try TOMLReader.parse("a = ", file: "Rules/custom.toml")) { error in
            XCTAssertEqual((error as? TOMLError)?.file, "Rules/custom.toml")
            XCTAssertTrue(String(describing: error).hasPrefix("Rules/custom.toml:1:5: "), "\(error)")
        }
    }
}
