import TOML
import XCTest

final class CollectionTests: XCTestCase {
    func testSimpleArrays() {
        XCTAssertEqual(value("[1, 2, 3]"), .array([.integer(1), .integer(2), .integer(3)]))
        XCTAssertEqual(value("[]"), .array([]))
        XCTAssertEqual(value("[ ]"), .array([]))
        XCTAssertEqual(value(#"["a", 'b', """c"""]"#), .array([.string("a"), .string("b"), .string("c")]))
    }

    func testMixedAndNestedArrays() {
        XCTAssertEqual(value("[[1, 2], ['a'], [], 1.5, {x = 1}]"), .array([
            .array([.integer(1), .integer(2)]),
            .array([.string("a")]),
            .array([]),
            .float(1.5),
            .table(tableOf(["x": .integer(1)])),
        ]))
    }

    func testMultilineArrayWithCommentsAndTrailingComma() {
        let table = parse("""
        keywords = [ # first comment
            "akia",   # AWS
            # a whole-line comment
            "ghp_",

            "xoxb",
        ]
        after = 1
        """)
        XCTAssertEqual(table["keywords"], .array([.string("akia"), .string("ghp_"), .string("xoxb")]))
        XCTAssertEqual(table["after"], .integer(1))
    }

    func testArrayElementsSpanningLinesWithCRLF() {
        XCTAssertEqual(parse("a = [\r\n1,\r\n2\r\n]\r\n")["a"], .array([.integer(1), .integer(2)]))
    }

    func testArrayValueAccessor() {
        XCTAssertEqual(value("[1]")?.arrayValue, [.integer(1)])
        XCTAssertNil(value("1")?.arrayValue)
    }

    func testInlineTables() {
        let point = value("{ x = 1, y = \"two\", z = [3] }")?.tableValue
        XCTAssertEqual(point?.keys, ["x", "y", "z"])
        XCTAssertEqual(point?["x"], .integer(1))
        XCTAssertEqual(point?["y"], .string("two"))
        XCTAssertEqual(point?["z"], .array([.integer(3)]))
        XCTAssertEqual(value("{}"), .table(TOMLTable()))
        XCTAssertEqual(value("{   }"), .table(TOMLTable()))
    }

    func testInlineTableWithDottedAndQuotedKeys() {
        let table = value(#"{ type.name = "pug", type.size = 'small', "a b" = true }"#)?.tableValue
        XCTAssertEqual(table?["type"]?.tableValue?["name"], .string("pug"))
        XCTAssertEqual(table?["type"]?.tableValue?["size"], .string("small"))
        XCTAssertEqual(table?["a b"], .boolean(true))
    }

    func testNestedInlineTables() {
        let table = parse("a = { b = { c = { d = 1 } }, e = [{ f = 2 }, { f = 3 }] }")
        let a = table["a"]?.tableValue
        XCTAssertEqual(a?["b"]?.tableValue?["c"]?.tableValue?["d"], .integer(1))
        XCTAssertEqual(a?["e"]?.arrayValue?.compactMap { $0.tableValue?["f"] }, [.integer(2), .integer(3)])
    }

    func testInlineTablePositionIsItsOpeningBrace() {
        let table = parse("x = 1\nname   =  { first = \"Tom\" }\n")
        XCTAssertEqual(table["name"]?.tableValue?.position, TOMLPosition(line: 2, column: 11))
        XCTAssertEqual(table["name"]?.tableValue?.position(of: "first"), TOMLPosition(line: 2, column: 13))
    }

    func testNestingUpToTheLimitIsAccepted() {
        let depth = TOMLReader.maximumNestingDepth
        XCTAssertEqual(depth, 128)
        let text = "a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var current = parse(text)["a"]
        var levels = 0
        while let inner = current?.arrayValue {
            levels += 1
            current = inner.first
        }
        XCTAssertEqual(levels, depth)
    }

    private func tableOf(_ pairs: KeyValuePairs<String, TOMLValue>) -> TOMLTable {
        var table = TOMLTable()
        for (key, value) in pairs { table[key] = value }
        return table
    }
}
