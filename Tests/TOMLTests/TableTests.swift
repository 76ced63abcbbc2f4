import TOML
import XCTest

final class TableTests: XCTestCase {
    func testTopLevelPairsAndTables() {
        let table = parse("""
        title = "example"

        [owner]
        name = "Tom"

        [database.connection]
        port = 5432
        """)
        XCTAssertEqual(table.keys, ["title", "owner", "database"])
        XCTAssertEqual(table["owner"]?.tableValue?["name"], .string("Tom"))
        XCTAssertEqual(table["database"]?.tableValue?["connection"]?.tableValue?["port"], .integer(5432))
    }

    func testImplicitTableMayBeDefinedLater() {
        let table = parse("""
        [x.y.z]
        a = 1
        [x]
        b = 2
        """)
        let x = table["x"]?.tableValue
        XCTAssertEqual(x?["b"], .integer(2))
        XCTAssertEqual(x?["y"]?.tableValue?["z"]?.tableValue?["a"], .integer(1))
        XCTAssertEqual(x?.position, TOMLPosition(line: 3, column: 1), "a table's position is its own header once it has one")
    }

    func testSubTableAfterParent() {
        let table = parse("[a]\nx = 1\n[a.b]\ny = 2\n[c]\n")
        XCTAssertEqual(table["a"]?.tableValue?["b"]?.tableValue?["y"], .integer(2))
        XCTAssertEqual(table["c"], .table(TOMLTable()))
    }

    func testWhitespaceAndQuotesInHeaders() {
        let table = parse(#"""
        [ a . "b.c" . 'd' ]
        e = 1
        [	tab	]
        """#)
        XCTAssertEqual(table["a"]?.tableValue?["b.c"]?.tableValue?["d"]?.tableValue?["e"], .integer(1))
        XCTAssertNotNil(table["tab"]?.tableValue)
    }

    func testArraysOfTables() {
        let table = parse("""
        [[products]]
        name = "Hammer"

        [[products]]

        [[products]]
        name = "Nail"
        """)
        let products = table["products"]?.arrayValue?.compactMap(\.tableValue)
        XCTAssertEqual(products?.count, 3)
        XCTAssertEqual(products?[0]["name"], .string("Hammer"))
        XCTAssertEqual(products?[1], TOMLTable())
        XCTAssertEqual(products?[2]["name"], .string("Nail"))
        XCTAssertEqual(products?[2].position, TOMLPosition(line: 6, column: 1))
    }

    func testNestedArrayOfTablesAttachesToLastElement() {
        let table = parse("""
        [[fruits]]
        name = "apple"

        [fruits.physical]
        color = "red"

        [[fruits.varieties]]
        name = "red delicious"

        [[fruits.varieties]]
        name = "granny smith"

        [[fruits]]
        name = "banana"

        [[fruits.varieties]]
        name = "plantain"
        """)
        let fruits = table["fruits"]?.arrayValue?.compactMap(\.tableValue) ?? []
        XCTAssertEqual(fruits.count, 2)
        XCTAssertEqual(fruits[0]["physical"]?.tableValue?["color"], .string("red"))
        XCTAssertEqual(fruits[0]["varieties"]?.arrayValue?.compactMap { $0.tableValue?["name"] },
                       [.string("red delicious"), .string("granny smith")])
        XCTAssertEqual(fruits[1]["varieties"]?.arrayValue?.compactMap { $0.tableValue?["name"] },
                       [.string("plantain")])
        XCTAssertNil(fruits[1]["physical"])
    }

    func testDottedKeys() {
        let table = parse("""
        name = "Orange"
        physical.color = "orange"
        physical.shape = "round"
        site."google.com" = true
        a . b . c = 1
        """)
        XCTAssertEqual(table.keys, ["name", "physical", "site", "a"])
        XCTAssertEqual(table["physical"]?.tableValue?.keys, ["color", "shape"])
        XCTAssertEqual(table["site"]?.tableValue?["google.com"], .boolean(true))
        XCTAssertEqual(table["a"]?.tableValue?["b"]?.tableValue?["c"], .integer(1))
    }

    func testHeaderMayAddSubTableToDottedTable() {
        let table = parse("""
        [fruit]
        apple.color = "red"
        apple.taste.sweet = true

        [fruit.apple.texture]
        smooth = true
        """)
        let apple = table["fruit"]?.tableValue?["apple"]?.tableValue
        XCTAssertEqual(apple?["taste"]?.tableValue?["sweet"], .boolean(true))
        XCTAssertEqual(apple?["texture"]?.tableValue?["smooth"], .boolean(true))
    }

    func testDottedKeysIntoImplicitTable() {
        let table = parse("[a.b.c]\nz = 1\n[a]\nb.d = 2\n")
        let b = table["a"]?.tableValue?["b"]?.tableValue
        XCTAssertEqual(b?["c"]?.tableValue?["z"], .integer(1))
        XCTAssertEqual(b?["d"], .integer(2))
    }

    func testBareAndQuotedKeys() {
        let table = parse(#"""
        bare_key-1 = 1
        1234 = 2
        "quoted key" = 3
        "ʎǝʞ" = 4
        'literal "key"' = 5
        "" = 6
        "tab\there" = 7
        true = 8
        3.14 = 9
        """#)
        XCTAssertEqual(table["bare_key-1"], .integer(1))
        XCTAssertEqual(table["1234"], .integer(2))
        XCTAssertEqual(table["quoted key"], .integer(3))
        XCTAssertEqual(table["ʎǝʞ"], .integer(4))
        XCTAssertEqual(table[#"literal "key""#], .integer(5))
        XCTAssertEqual(table[""], .integer(6))
        XCTAssertEqual(table["tab\there"], .integer(7))
        XCTAssertEqual(table["true"], .integer(8))
        XCTAssertEqual(table["3"]?.tableValue?["14"], .integer(9))
    }

    func testKeysKeepSourceOrder() {
        let table = parse("z = 1\na = 2\n[m]\n[b]\nk = 3\n")
        XCTAssertEqual(table.keys, ["z", "a", "m", "b"])
    }

    func testKeyPositionsCountScalars() {
        let table = parse("""
        # comment
        first = 1
          "é😀" = 2   # leading spaces
        w = { "é😀" = 1, k = 2 }
        y = 3
        """)
        XCTAssertEqual(table.position(of: "first"), TOMLPosition(line: 2, column: 1))
        XCTAssertEqual(table.position(of: "é😀"), TOMLPosition(line: 3, column: 3))
        XCTAssertEqual(table["w"]?.tableValue?.position(of: "k"), TOMLPosition(line: 4, column: 17))
        XCTAssertEqual(table.position(of: "y"), TOMLPosition(line: 5, column: 1))
        XCTAssertNil(table.position(of: "missing"))
        XCTAssertNil(table.position, "the root has no header")
    }

    func testTablePositionsPointAtHeaders() {
        let table = parse("\n\n  [a.b]\nk = 1\n\n[[c]]\n")
        let a = table["a"]?.tableValue
        XCTAssertEqual(table.position(of: "a"), TOMLPosition(line: 3, column: 4))
        XCTAssertEqual(a?.position, TOMLPosition(line: 3, column: 4), "implicit tables sit where their key part was written")
        XCTAssertEqual(a?.position(of: "b"), TOMLPosition(line: 3, column: 6))
        XCTAssertEqual(a?["b"]?.tableValue?.position, TOMLPosition(line: 3, column: 3))
        XCTAssertEqual(a?["b"]?.tableValue?.position(of: "k"), TOMLPosition(line: 4, column: 1))
        XCTAssertEqual(table["c"]?.arrayValue?.first?.tableValue?.position, TOMLPosition(line: 6, column: 1))
    }

    func testCommentsBlankLinesAndCRLF() {
        let table = parse("# top\r\n\r\n  a = 1 # trailing\r\n\t# indented\r\n[t] # header comment\r\nb = 'x'\r\n#end")
        XCTAssertEqual(table["a"], .integer(1))
        XCTAssertEqual(table["t"]?.tableValue?["b"], .string("x"))
    }

    func testEmptyDocumentsAndByteOrderMark() {
        XCTAssertEqual(parse(""), TOMLTable())
        XCTAssertEqual(parse("\n\n# only a comment"), TOMLTable())
        XCTAssertEqual(parse("\u{FEFF}a = 1")["a"], .integer(1))
    }

    func testNoTrailingNewlineNeeded() {
        XCTAssertEqual(parse("a = 'x'")["a"], .string("x"))
        XCTAssertEqual(parse("[t]")["t"], .table(TOMLTable()))
    }
}
