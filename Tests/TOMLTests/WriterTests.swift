import TOML
import XCTest

final class WriterTests: XCTestCase {
    /// Writes `table`, reads it back, and checks the two agree; also checks
    /// that writing is stable, so a rewritten file does not churn.
    @discardableResult
    private func assertRoundTrip(_ table: TOMLTable, file: StaticString = #filePath, line: UInt = #line) -> String {
        let text = TOMLWriter.write(table)
        do {
            let reread = try TOMLReader.parse(text, file: "written.toml")
            XCTAssertEqual(reread, table, "round trip changed the table; written text:\n\(text)", file: file, line: line)
            XCTAssertEqual(TOMLWriter.write(reread), text, "writing is not stable", file: file, line: line)
        } catch {
            XCTFail("written text does not parse: \(error)\n\(text)", file: file, line: line)
        }
        return text
    }

    private func table(_ pairs: KeyValuePairs<String, TOMLValue>) -> TOMLTable {
        var table = TOMLTable()
        for (key, value) in pairs { table[key] = value }
        return table
    }

    func testExactOutputShape() {
        let document = parse("""
        title = "t"
        [[rules]]
        id = "a"
        keywords = ["x", "y"]
        [rules.extra]
        n = 1
        [[rules]]
        id = "b"
        [allowlist]
        paths = ['''a\\.b''']
        """)
        XCTAssertEqual(TOMLWriter.write(document), """
        title = "t"

        [[rules]]
        id = "a"
        keywords = ["x", "y"]

        [rules.extra]
        n = 1

        [[rules]]
        id = "b"

        [allowlist]
        paths = ["a\\\\.b"]

        """)
    }

    func testRegexesRoundTrip() {
        let patterns = [
            #"\b(sk-[A-Za-z0-9_\-]{20})\b"#,
            #"(?i)(?:key|api|token)(?:[\s"'=:]{0,5})([0-9a-f]{32})"#,
            #"\\"#, #"\"#, #"\\\""#, #"'''"#, #"""""#, #"\u0041"#, #"\n"#,
            "-----BEGIN[ A-Z]*PRIVATE KEY-----",
        ]
        for pattern in patterns {
            let text = assertRoundTrip(table(["regex": .string(pattern)]))
            XCTAssertFalse(text.contains("\n\n"), "strings stay on one line")
        }
        let fromSource = parse(#"regex = '''\b(sk-[A-Za-z0-9_\-]{20})\b'''"#)
        XCTAssertEqual(fromSource["regex"], .string(#"\b(sk-[A-Za-z0-9_\-]{20})\b"#))
        XCTAssertEqual(TOMLWriter.write(fromSource), #"regex = "\\b(sk-[A-Za-z0-9_\\-]{20})\\b""# + "\n")
        assertRoundTrip(fromSource)
    }

    func testAwkwardStringsRoundTrip() {
        let strings = [
            "", "plain", "He said \"hi\"", "it's", #"C:\path\to\"#, "tab\there", "line1\nline2\r\nline3\n",
            "é😀€ ʎǝʞ 中文", "\u{0}\u{1}\u{8}\u{C}\u{1B}\u{7F}", "\u{85}\u{2028}", "#not a comment", "= [ ] { }",
            "\"\"\"", "'''", "trailing backslash \\",
        ]
        for string in strings {
            assertRoundTrip(table(["s": .string(string)]))
            assertRoundTrip(table(["a": .array([.string(string)])]))
        }
    }

    func testAwkwardKeysRoundTrip() {
        for key in ["a.b", "", "with space", "é", "quote\"key", "back\\slash", "new\nline", "1.5", "-", "_", "#", "[x]"] {
            assertRoundTrip(table([key: .integer(1)]))
            assertRoundTrip(table([key: .table(table([key: .boolean(true)]))]))
            assertRoundTrip(table(["list": .array([.table(table([key: .integer(2)]))])]))
        }
        XCTAssertEqual(TOMLWriter.write(table(["a.b": .integer(1), "ok-key_1": .integer(2)])), "\"a.b\" = 1\nok-key_1 = 2\n")
    }

    func testNumbersRoundTrip() {
        let numbers: [TOMLValue] = [
            .integer(0), .integer(-1), .integer(.max), .integer(.min),
            .float(0), .float(-0.0), .float(1), .float(-1.5), .float(0.1), .float(1e-5), .float(1e300),
            .float(123456789012345680), .float(.leastNonzeroMagnitude), .float(.greatestFiniteMagnitude),
            .float(.infinity), .float(-.infinity), .float(.nan),
        ]
        for number in numbers {
            assertRoundTrip(table(["n": number]))
        }
        XCTAssertEqual(TOMLWriter.write(table(["f": .float(2), "i": .integer(2)])), "f = 2.0\ni = 2\n")
        guard case .float(let zero)? = parse(TOMLWriter.write(table(["z": .float(-0.0)])))["z"] else {
            return XCTFail("not a float")
        }
        XCTAssertEqual(zero.sign, .minus)
    }

    func testOtherScalarsRoundTrip() {
        assertRoundTrip(table(["t": .boolean(true), "f": .boolean(false)]))
        for date in ["1979-05-27T07:32:00Z", "1979-05-27 07:32:00.5-07:00", "1979-05-27", "07:32:00"] {
            assertRoundTrip(table(["d": .datetime(date)]))
        }
    }

    func testStructuresRoundTrip() {
        let inner = table(["x": .integer(1), "y": .array([])])
        let document = table([
            "scalar": .string("s"),
            "empty": .table(TOMLTable()),
            "nested": .table(table(["deeper": .table(table(["deepest": .table(inner)])), "after": .integer(2)])),
            "rules": .array([
                .table(table(["id": .string("a"), "allowlists": .array([.table(inner), .table(TOMLTable())])])),
                .table(TOMLTable()),
                .table(table(["sub": .table(inner), "allowlists": .array([.table(inner)])])),
            ]),
            "mixed": .array([.integer(1), .table(inner), .array([.table(inner)])]),
            "matrix": .array([.array([.table(inner)]), .array([])]),
            "emptyList": .array([]),
            "inlineHolder": .array([.table(table(["t": .table(table(["u": .table(TOMLTable())]))]))]),
            "late": .boolean(false),
        ])
        assertRoundTrip(document)
    }

    func testParsedDocumentRoundTrips() {
        assertRoundTrip(parse("""
        a.b.c = 1
        d = { e = [1, { f = 'g' }], h = {} }
        [x.y]
        z = 1979-05-27T07:32:00Z
        [[x.y.list]]
        q = '''
        multi
        line'''
        [[x.y.list]]
        [x]
        w = -inf
        """))
    }

    func testDeepTablesRoundTrip() {
        var current = table(["leaf": .integer(1)])
        for level in 0..<100 {
            current = table(["k\(level)": .table(current), "v": .integer(Int64(level))])
        }
        assertRoundTrip(current)
    }

    func testTablesHoldingOnlyTablesGetNoHeader() {
        XCTAssertEqual(TOMLWriter.write(parse("[a.b.c]\nx = 1\n[a.d]\n[[a.e]]\n")), "[a.b.c]\nx = 1\n\n[a.d]\n\n[[a.e]]\n")
        assertRoundTrip(parse("[a.b.c]\nx = 1\n[a.d]\n[[a.e]]\n"))
    }

    func testKeyOrderIsPreservedWithinEachGroup() {
        let document = parse("b = 1\n[z]\n[a]\n[[m]]\nc = 2\n")
        XCTAssertEqual(TOMLWriter.write(document), "b = 1\n\n[z]\n\n[a]\n\n[[m]]\nc = 2\n")
    }
}
