import TOML
import XCTest

final class StringTests: XCTestCase {
    func testBasicStringEscapes() {
        XCTAssertEqual(value(#""a\bb\tc\nd\fe\rf\"g\\h""#), .string("a\u{08}b\tc\nd\u{0C}e\rf\"g\\h"))
    }

    func testUnicodeEscapes() {
        XCTAssertEqual(value(#""\u00E9\u20AC""#), .string("é€"))
        XCTAssertEqual(value(#""\U0001F600""#), .string("😀"))
        XCTAssertEqual(value(#""\u0000""#), .string("\u{0}"))
        XCTAssertEqual(value(#""\U0010FFFF""#), .string("\u{10FFFF}"))
    }

    func testRawUnicodeAndTabsAreKept() {
        XCTAssertEqual(value("\"héllo\twörld 😀\""), .string("héllo\twörld 😀"))
    }

    func testEmptyStrings() {
        XCTAssertEqual(value(quotes(2)), .string(""))
        XCTAssertEqual(value("''"), .string(""))
        XCTAssertEqual(value(quotes(6)), .string(""))
        XCTAssertEqual(value("''''''"), .string(""))
    }

    func testLiteralStringHasNoEscapes() {
        XCTAssertEqual(value(#"'C:\Users\nodejs\templates'"#), .string(#"C:\Users\nodejs\templates"#))
        XCTAssertEqual(value(#"'<\i\c*\s*>'"#), .string(#"<\i\c*\s*>"#))
        XCTAssertEqual(value(#"'say "hi"'"#), .string(#"say "hi""#))
    }

    func testMultilineBasicDropsFirstNewline() {
        let table = parse("s = \"\"\"\nRoses\nViolets\"\"\"\n")
        XCTAssertEqual(table["s"], .string("Roses\nViolets"))
    }

    func testMultilineBasicKeepsLaterNewlinesAndEscapes() {
        let table = parse("s = \"\"\"\n\none\\ttwo\n\"\"\"\n")
        XCTAssertEqual(table["s"], .string("\none\ttwo\n"))
    }

    func testLineEndingBackslashTrimsWhitespaceAndNewlines() {
        let text = "s = \"\"\"\nThe quick \\\n\n    brown \\   \n   fox.\\\n\"\"\"\n"
        XCTAssertEqual(parse(text)["s"], .string("The quick brown fox."))
    }

    func testLineEndingBackslashWithCRLF() {
        let text = "s = \"\"\"\r\na \\\r\n   b\r\nc\"\"\"\r\n"
        XCTAssertEqual(parse(text)["s"], .string("a b\nc"))
    }

    func testQuotesNextToMultilineDelimiter() {
        XCTAssertEqual(value(quotes(3) + "Here are two quotation marks: \"\". Simple enough." + quotes(3)),
                       .string("Here are two quotation marks: \"\". Simple enough."))
        XCTAssertEqual(value(quotes(4) + "one quote" + quotes(4)), .string("\"one quote\""))
        XCTAssertEqual(value(quotes(5) + "two at each end" + quotes(5)), .string("\"\"two at each end\"\""))
        XCTAssertEqual(value(quotes(3) + #"\"\"\""# + quotes(3)), .string(quotes(3)))
    }

    private func quotes(_ count: Int) -> String {
        String(repeating: "\"", count: count)
    }

    func testMultilineLiteralDropsFirstNewlineOnly() {
        let text = "re = '''\nI [dw]on't need \\d{2} apples\n'''\n"
        XCTAssertEqual(parse(text)["re"], .string("I [dw]on't need \\d{2} apples\n"))
    }

    func testMultilineLiteralApostrophesNextToDelimiter() {
        XCTAssertEqual(value("''''That,' she said, 'is still pointless.''''"),
                       .string("'That,' she said, 'is still pointless.'"))
        XCTAssertEqual(value("'''''two'''''"), .string("''two''"))
    }

    func testMultilineNormalisesCRLF() {
        XCTAssertEqual(parse("s = '''\r\na\r\nb'''\r\n")["s"], .string("a\nb"))
        XCTAssertEqual(parse("s = \"\"\"a\r\nb\"\"\"")["s"], .string("a\nb"))
    }

    func testRegexInLiteralStrings() {
        let table = parse(#"""
        a = '''\b(sk-[A-Za-z0-9_\-]{20})\b'''
        b = '''(?i)(?:key|api)["'\s]*=\s*'''
        c = "\\d+\\.\\d+"
        """#)
        XCTAssertEqual(table["a"], .string(#"\b(sk-[A-Za-z0-9_\-]{20})\b"#))
        XCTAssertEqual(table["b"], .string(#"(?i)(?:key|api)["'\s]*=\s*"#))
        XCTAssertEqual(table["c"], .string(#"\d+\.\d+"#))
    }

    func testStringValueAccessor() {
        XCTAssertEqual(value("'x'")?.stringValue, "x")
        XCTAssertNil(value("1")?.stringValue)
    }
}
