import TOML
import XCTest

/// Every error names the exact line and column of the offending character.
final class ErrorTests: XCTestCase {
    // MARK: Keys and tables defined twice

    func testDuplicateKeys() {
        assertError("a = 1\na = 2", line: 2, column: 1, "duplicate key (first defined at line 1, column 1)")
        assertError("a.b = 1\na.b = 2", line: 2, column: 3, "duplicate key (first defined at line 1, column 3)")
        assertError("a = {b = 1, b = 2}", line: 1, column: 13, "duplicate key (first defined at line 1, column 6)")
        assertError("[a.b]\n[a]\nb = 1", line: 3, column: 1, "duplicate key (first defined at line 1, column 4)")
        assertError("\"a\" = 1\na = 2", line: 2, column: 1, "duplicate key (first defined at line 1, column 1)")
        assertError("'quoted key' = 1\n\"quoted key\" = 2", line: 2, column: 1, "duplicate key (first defined at line 1, column 1)")
    }

    func testRedefiningTables() {
        assertError("[a]\n[a]", line: 2, column: 2, "this table is defined more than once")
        assertError("[a]\nb.c = 1\n[a]", line: 3, column: 2, "this table is defined more than once")
        assertError("[x.y]\n[x]\n[x]", line: 3, column: 2, "this table is defined more than once")
        assertError("[a]\nb = 1\n[a.b]", line: 3, column: 4, "this key is already an integer, not a table")
        assertError("a = 'x'\n[a.b]", line: 2, column: 2, "this key is already a string, not a table")
    }

    func testHeadersCannotReopenDottedTables() {
        assertError("a.b = 1\n[a]", line: 2, column: 2, "this table was already defined with dotted keys")
        assertError("[fruit]\napple.color = 'red'\n[fruit.apple]", line: 3, column: 8, "was already defined with dotted keys")
    }

    func testDottedKeysCannotExtendTablesDefinedElsewhere() {
        assertError("[a.b.c]\nz = 9\n[a]\nb.c.t = 1", line: 4, column: 3,
                    "this table is already defined; dotted keys cannot add to it here")
        assertError("[a]\nb.c = 1\n[x]\n[a.b.d]\n[a]", line: 5, column: 2, "defined more than once")
        assertError("a.b.c = 1\n[x]\n[a]", line: 3, column: 2, "already defined with dotted keys")
        assertError("[a.b]\nx = 1\n[a]\nb.y = 2", line: 4, column: 1, "this table is already defined; dotted keys cannot add to it here")
    }

    func testArraysOfTablesConflicts() {
        assertError("[[a]]\n[a]", line: 2, column: 2, "this key is already an array of tables")
        assertError("[a]\n[[a]]", line: 2, column: 3, "this key is already a table, not an array of tables")
        assertError("a = []\n[[a]]", line: 2, column: 3, "this key is an array value")
        assertError("a = [{b = 1}]\n[a.c]", line: 2, column: 2, "this key is an array value")
        assertError("[[t.a]]\n[t]\na.y = 2", line: 3, column: 1, "this key is an array of tables; dotted keys cannot add to it")
    }

    func testInlineTablesAreClosed() {
        assertError("a = {b = 1}\n[a.c]", line: 2, column: 2, "this key is an inline table, which cannot be extended")
        assertError("a = {b = 1}\n[a]", line: 2, column: 2, "this key is an inline table")
        assertError("a = {b = 1}\na.c = 2", line: 2, column: 1, "this key is an inline table")
        assertError("[product]\ntype = { name = 'Nail' }\ntype.edible = false", line: 3, column: 1, "this key is an inline table")
    }

    func testValidRepeatsAreNotErrors() {
        XCTAssertNoThrow(try TOMLReader.parse("[[a]]\nb.c = 1\n[[a]]\nb.c = 2", file: "x"))
        XCTAssertNoThrow(try TOMLReader.parse("[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2", file: "x"))
        XCTAssertNoThrow(try TOMLReader.parse("a.b = 1\na.c = 2\n[a.d]", file: "x"))
    }

    // MARK: Strings

    func testInvalidEscapes() {
        assertError(#"s = "\q""#, line: 1, column: 6, #"invalid escape sequence '\q'"#)
        assertError(#"s = "abc\x41""#, line: 1, column: 9, #"invalid escape sequence '\x'"#)
        assertError(#"s = "a\ b""#, line: 1, column: 7, "invalid escape sequence: backslash followed by ' '")
        assertError(#"s = "\u12""#, line: 1, column: 6, #"\u escape needs 4 hexadecimal digits"#)
        assertError(#"s = "\U0001F6""#, line: 1, column: 6, #"\U escape needs 8 hexadecimal digits"#)
        assertError(#"s = "\uD800""#, line: 1, column: 6, "not a Unicode scalar value")
        assertError(#"s = "\U00110000""#, line: 1, column: 6, "not a Unicode scalar value")
        assertError("s = \"\"\"\nok\n  bad \\e\"\"\"", line: 3, column: 7, #"invalid escape sequence '\e'"#)
        assertError(#"s = """a\ b""""#, line: 1, column: 9, "must be the last thing on its line")
    }

    func testUnterminatedStrings() {
        assertError(#"s = "abc"#, line: 1, column: 5, "unterminated string")
        assertError("s = 'abc", line: 1, column: 5, "unterminated string")
        assertError("x = 1\ns = \"\"\"abc\n\ndef", line: 2, column: 5, "unterminated multi-line string")
        assertError("s = '''abc\n''", line: 1, column: 5, "unterminated multi-line string")
        assertError(#"s = "abc\"#, line: 1, column: 9, "unterminated string")
    }

    func testNewlineInSingleLineString() {
        assertError("s = \"abc\nt = 1\"", line: 1, column: 9, "newline in a single-line string")
        assertError("s = 'ab\r\n'", line: 1, column: 8, "newline in a single-line string")
        assertError("[\"a\nb\"]", line: 1, column: 4, "newline in a single-line string")
    }

    func testControlCharacters() {
        assertError("a = \"x\u{01}y\"", line: 1, column: 7, "control character U+0001 must be escaped")
        assertError("a = 'x\u{0}'", line: 1, column: 7, "control character U+0000 is not allowed in a literal string")
        assertError("a = \"\"\"\u{0B}\"\"\"", line: 1, column: 8, "control character U+000B is not allowed in a string")
        assertError("a = '''x\u{7F}'''", line: 1, column: 9, "control character U+007F")
        assertError("# fine\n# a\u{7F}", line: 2, column: 4, "control character U+007F is not allowed in a comment")
        assertError("a = 1\rb = 2", line: 1, column: 6, "a carriage return without a line feed")
        assertError("\r", line: 1, column: 1, "a carriage return without a line feed is not allowed here")
        assertError("a = \"\"\"x\ry\"\"\"", line: 1, column: 9, "carriage return without a line feed")
        assertError("a = 1\n\u{0C}", line: 2, column: 1, "expected a key, found control character U+000C")
    }

    // MARK: Key/value syntax

    func testMissingEquals() {
        assertError("a 1", line: 1, column: 3, "expected '=' after key, found '1'")
        assertError("a", line: 1, column: 2, "expected '=' after key, found end of input")
        assertError("[t]\nkey\n", line: 2, column: 4, "expected '=' after key, found end of line")
        assertError(#"a."b" c = 1"#, line: 1, column: 7, "expected '=' after key, found 'c'")
        assertError("a : 1", line: 1, column: 3, "expected '=' after key, found ':'")
    }

    func testInvalidKeys() {
        assertError("= 1", line: 1, column: 1, "expected a key, found '='")
        assertError("a. = 1", line: 1, column: 4, "expected a key, found '='")
        assertError("\"\"\"a\"\"\" = 1", line: 1, column: 1, "a multi-line string cannot be used as a key")
        assertError("'''a''' = 1", line: 1, column: 1, "a multi-line string cannot be used as a key")
        assertError("a$b = 1", line: 1, column: 2, "expected '=' after key, found '$'")
        assertError("é = 1", line: 1, column: 1, "expected a key, found character U+00E9")
    }

    func testMissingValues() {
        assertError("a =", line: 1, column: 4, "expected a value, found end of input")
        assertError("a = \nb = 1", line: 1, column: 5, "expected a value, found end of line")
        assertError("a = # c", line: 1, column: 5, "expected a value, found '#'")
        assertError("a = hello", line: 1, column: 5, "expected a value, found 'h' (strings must be quoted)")
        assertError("a = truex", line: 1, column: 5, "strings must be quoted")
        assertError("a = True", line: 1, column: 5, "strings must be quoted")
        assertError("a = _1", line: 1, column: 5, "strings must be quoted")
        assertError("a = .5", line: 1, column: 5, "expected a value, found '.'")
    }

    func testGarbageAfterValues() {
        assertError("a = 1 2", line: 1, column: 7, "expected end of line after value, found '2'")
        assertError("a = \"x\" y", line: 1, column: 9, "expected end of line after value, found 'y'")
        assertError("a = []]", line: 1, column: 7, "expected end of line after value, found ']'")
        assertError("a = 1, b = 2", line: 1, column: 6, "expected end of line after value, found ','")
        assertError("[a] b = 1", line: 1, column: 5, "expected end of line after table header, found 'b'")
        assertError(#"s = """a"""""""#, line: 1, column: 14, #"expected end of line after value, found '"'"#)
        assertError("a = true false", line: 1, column: 10, "expected end of line after value, found 'f'")
    }

    // MARK: Numbers and date-times

    func testInvalidNumbers() {
        assertError("a = 01", line: 1, column: 5, "leading zeros are not allowed")
        assertError("a = -01.5", line: 1, column: 6, "leading zeros are not allowed")
        assertError("a = 1__0", line: 1, column: 6, "an underscore must sit between two digits")
        assertError("a = 1_", line: 1, column: 6, "an underscore must sit between two digits")
        assertError("a = 1_.5", line: 1, column: 6, "an underscore must sit between two digits")
        assertError("a = 1.", line: 1, column: 7, "invalid fraction: expected a digit, found end of input")
        assertError("a = 1.e5", line: 1, column: 7, "invalid fraction: expected a digit, found 'e'")
        assertError("a = 1e", line: 1, column: 7, "invalid exponent")
        assertError("a = 1e+", line: 1, column: 8, "invalid exponent")
        assertError("a = 1.5.3", line: 1, column: 8, "invalid number: unexpected '.'")
        assertError("a = 12a", line: 1, column: 7, "invalid number: unexpected 'a'")
        assertError("a = +", line: 1, column: 6, "invalid number: expected a digit, found end of input")
        assertError("a = 0x", line: 1, column: 7, "invalid hexadecimal integer: expected a digit")
        assertError("a = 0xG1", line: 1, column: 7, "invalid hexadecimal integer")
        assertError("a = 0o8", line: 1, column: 7, "invalid octal integer")
        assertError("a = 0b102", line: 1, column: 9, "invalid digit in binary integer: '2'")
        assertError("a = 0X1F", line: 1, column: 6, "invalid number: unexpected 'X'")
        assertError("a = -0x1", line: 1, column: 5, "a sign is not allowed on hexadecimal, octal or binary integers")
        assertError("a = 9223372036854775808", line: 1, column: 5, "integer does not fit in 64 bits")
        assertError("a = -9223372036854775809", line: 1, column: 5, "integer does not fit in 64 bits")
        assertError("a = 0x8000000000000000", line: 1, column: 5, "integer does not fit in 64 bits")
        assertError("a = [1, 2, 03]", line: 1, column: 12, "leading zeros")
    }

    func testInvalidDateTimes() {
        for literal in ["1979-13-01", "1979-02-30", "2023-02-29", "1979-05-27T25:00:00", "1979-05-27T07:60:00",
                        "12:61:00", "07:32", "1979-05-27T07:32:00+7:00", "1979-05-27T07:32:00.", "1979-05-27X",
                        "07:32:00Z", "1979-05-27T07:32:00ZZ"] {
            assertError("a = \(literal)", line: 1, column: 5, "invalid date-time")
        }
    }

    // MARK: Arrays, inline tables and headers

    func testArraySyntaxErrors() {
        assertError("a = [1 2]", line: 1, column: 8, "expected ',' or ']' after an array element, found '2'")
        assertError("a = [1,,2]", line: 1, column: 8, "expected a value, found ','")
        assertError("a = [,]", line: 1, column: 6, "expected a value, found ','")
        assertError("a = [1,", line: 1, column: 5, "unterminated array")
        assertError("x = 0\na = [\n1,\n# c\n", line: 2, column: 5, "unterminated array")
        assertError("a = [1 # c\n 2]", line: 2, column: 2, "expected ',' or ']'")
    }

    func testInlineTableSyntaxErrors() {
        assertError("a = {b = 1,}", line: 1, column: 12, "trailing comma is not allowed in an inline table")
        assertError("a = {b = 1\n}", line: 1, column: 11, "an inline table must be on a single line")
        assertError("a = {\nb = 1}", line: 1, column: 6, "an inline table must be on a single line")
        assertError("a = {b = 1", line: 1, column: 5, "unterminated inline table")
        assertError("a = {b = 1 c = 2}", line: 1, column: 12, "expected ',' or '}' in an inline table, found 'c'")
        assertError("a = {b}", line: 1, column: 7, "expected '=' after key, found '}'")
        assertError("a = {,}", line: 1, column: 6, "expected a key, found ','")
    }

    func testHeaderSyntaxErrors() {
        assertError("[a", line: 1, column: 3, "expected ']' to close the table header, found end of input")
        assertError("[a\nb = 1", line: 1, column: 3, "expected ']' to close the table header, found end of line")
        assertError("[[a]", line: 1, column: 5, "expected ']]' to close the array-of-tables header")
        assertError("[[a] ]", line: 1, column: 5, "expected ']]' to close the array-of-tables header, found ' '")
        assertError("[]", line: 1, column: 2, "expected a key, found ']'")
        assertError("[a.]", line: 1, column: 4, "expected a key, found ']'")
        assertError("[ [a] ]", line: 1, column: 3, "expected a key, found '['")
        assertError("[a b]", line: 1, column: 4, "expected ']' to close the table header, found 'b'")
    }

    // MARK: Nesting limits

    func testDeepArraysAreRejected() {
        let depth = TOMLReader.maximumNestingDepth + 1
        let text = "a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        assertError(text, line: 1, column: 4 + depth, "values are nested too deeply (limit 128)")
    }

    func testDeepInlineTablesAreRejected() {
        let text = "a = " + String(repeating: "{b=", count: 200) + "1" + String(repeating: "}", count: 200)
        assertError(text, line: 1, column: 4 + 128 * 3 + 1, "nested too deeply (limit 128)")
    }

    func testLongDottedKeysAreRejected() {
        let header = "[" + Array(repeating: "a", count: 200).joined(separator: ".") + "]"
        assertError(header, line: 1, column: 2 + 2 * 128, "dotted key has too many parts (limit 128)")
        let deepest = "[" + Array(repeating: "a", count: 128).joined(separator: ".") + "]\nb.c = 1"
        assertError(deepest, line: 2, column: 1, "tables are nested too deeply (limit 128)")
    }

    func testHugeInputsOfOpenersFailCleanly() {
        for opener in ["[", "{", "a = [", "a = {", "\"", "[[", "a."] {
            let text = String(repeating: opener, count: 100_000)
            XCTAssertThrowsError(try TOMLReader.parse(text, file: "x"), opener)
        }
        for (opener, closer) in [("[", "]"), ("{b=", "}"), ("[{b=", "}]")] {
            let text = "a = " + String(repeating: opener, count: 100_000) + String(repeating: closer, count: 100_000)
            XCTAssertThrowsError(try TOMLReader.parse(text, file: "x"), opener) { error in
                XCTAssertTrue((error as? TOMLError)?.message.contains("too deeply") == true, "\(error)")
            }
        }
    }

    func testByteOrderMarkDoesNotShiftColumns() {
        assertError("\u{FEFF}a = 1 2", line: 1, column: 7, "expected end of line after value")
        assertError("\u{FEFF}s = '''x\ny", line: 1, column: 5, "unterminated multi-line string")
        assertError("\u{FEFF}\u{FEFF}a = 1", line: 1, column: 1, "expected a key, found character U+FEFF")
    }

    // MARK: Bytes

    func testInvalidUTF8IsReportedWithPosition() {
        func check(_ bytes: [UInt8], line: Int, column: Int, _ fragment: String, file: StaticString = #filePath, at: UInt = #line) {
            do {
                _ = try TOMLReader.parse(bytes: bytes, file: "b.toml")
                XCTFail("expected an error", file: file, line: at)
            } catch let error as TOMLError {
                XCTAssertEqual(error.position, TOMLPosition(line: line, column: column), "\(error)", file: file, line: at)
                XCTAssertTrue(error.message.contains(fragment), error.message, file: file, line: at)
            } catch {
                XCTFail("\(error)", file: file, line: at)
            }
        }
        let prefix = Array("x = 1\nab = 'é".utf8)
        check(prefix + [0xFF, 0x27], line: 2, column: 8, "invalid UTF-8 (byte 0xFF)")
        check(prefix + [0xC3, 0x28], line: 2, column: 8, "byte 0xC3")
        check(prefix + [0xC0, 0x80], line: 2, column: 8, "byte 0xC0")              // overlong
        check(prefix + [0xE0, 0x80, 0x80], line: 2, column: 8, "byte 0xE0")        // overlong
        check(prefix + [0xED, 0xA0, 0x80], line: 2, column: 8, "byte 0xED")        // surrogate
        check(prefix + [0xF4, 0x90, 0x80, 0x80], line: 2, column: 8, "byte 0xF4")  // above U+10FFFF
        check(prefix + [0xE2, 0x82], line: 2, column: 8, "byte 0xE2")              // truncated
        check([0x80], line: 1, column: 1, "byte 0x80")
    }

    func testValidBytesParseLikeText() throws {
        let text = "a = 'é😀€'\n[t]\nb = [1, 2]\n"
        XCTAssertEqual(try TOMLReader.parse(bytes: Array(text.utf8), file: "b"), parse(text))
        XCTAssertEqual(try TOMLReader.parse(bytes: ContiguousArray(text.utf8), file: "b"), parse(text))
        XCTAssertEqual(try TOMLReader.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("a = 1".utf8), file: "b")["a"], .integer(1))
        XCTAssertThrowsError(try TOMLReader.parse(bytes: Array("a = 1 2".utf8), file: "b")) { error in
            XCTAssertEqual(error as? TOMLError, TOMLError(file: "b", line: 1, column: 7,
                                                         message: "expected end of line after value, found '2'"))
        }
    }

    // MARK: Messages

    func testDescriptionIsFileLineColumnMessage() {
        let error = TOMLError(file: "rules.toml", line: 3, column: 14, message: "duplicate key 'id'")
        XCTAssertEqual(error.description, "rules.toml:3:14: duplicate key 'id'")
        XCTAssertEqual("\(error)", "rules.toml:3:14: duplicate key 'id'")
    }

    func testMessagesDoNotQuoteValues() {
        let secret = "SECRETSECRETSECRET"
        let documents = [
            "token = \"sk-\(secret)",
            "token = 'sk-\(secret)",
            "token = \"\"\"sk-\(secret)",
            "token = sk-\(secret)",
            "token = \"sk-\(secret)\\q\(secret)\"",
            "token = 'sk-\(secret)' \(secret)",
            "token = \"sk-\(secret)\u{01}\"",
            "token = 12\(secret)",
            "token = 0x\(secret)",
            "token = [\"\(secret)\" \"\(secret)\"]",
            "token = { a = \"\(secret)\" b = 1 }",
            "token = \"\(secret)\"\ntoken = \"\(secret)\"",
        ]
        for document in documents {
            XCTAssertThrowsError(try TOMLReader.parse(document, file: "f")) { error in
                let text = String(describing: error)
                XCTAssertFalse(text.contains("SECRETSE"), "leaks input: \(text)")
            }
        }
    }

    /// A key name is text from the file (a secret pasted where a name goes): messages point
    /// at it by line and column and never quote it.
    func testKeyNamesAreNeverQuotedInMessages() {
        let secret = "SECRETSE" + "CRETSECRET"
        for document in ["\(secret) = 1\n\(secret) = 2", "[\(secret)]\n[\(secret)]", "\(secret) = 1\n[\(secret).b]",
                         "[[\(secret)]]\n[\(secret)]", "\"\(secret)\" = {b = 1}\n\"\(secret)\".c = 2", "a.\(secret) = 1\n[a.\(secret).x]"] {
            XCTAssertThrowsError(try TOMLReader.parse(document, file: "f")) { error in
                let text = String(describing: error)
                XCTAssertFalse(text.contains("SECRETSE") || text.contains("CRETSECR"), "quotes a key: \(text)")
                XCTAssertTrue(text.hasPrefix("f:2:"), text)
            }
        }
        let key = String(repeating: "k", count: 500)
        let error = assertError("\(key) = 1\n\(key) = 2", line: 2, column: 1, "duplicate key (first defined at line 1, column 1)")
        XCTAssertFalse(error?.message.contains("kkkk") ?? true)
    }
}
