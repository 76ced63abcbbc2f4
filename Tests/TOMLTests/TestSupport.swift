import TOML
import XCTest

/// Parses `text`, failing the calling test (not crashing) on an error.
func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLTable {
    do {
        return try TOMLReader.parse(text, file: "test.toml")
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return TOMLTable()
    }
}

/// Parses `text` as a single `key = value` line and returns the value.
func value(_ literal: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLValue? {
    parse("v = \(literal)\n", file: file, line: line)["v"]
}

/// Asserts that `text` fails with a `TOMLError` at exactly `line`:`column`
/// whose message contains `fragment`, and returns it for further checks.
@discardableResult
func assertError(
    _ text: String, line errorLine: Int, column: Int, _ fragment: String,
    file: StaticString = #filePath, line: UInt = #line
) -> TOMLError? {
    do {
        let table = try TOMLReader.parse(text, file: "test.toml")
        XCTFail("expected an error, got \(table)", file: file, line: line)
        return nil
    } catch let error as TOMLError {
        XCTAssertEqual(error.file, "test.toml", file: file, line: line)
        XCTAssertEqual(error.line, errorLine, "line of: \(error)", file: file, line: line)
        XCTAssertEqual(error.column, column, "column of: \(error)", file: file, line: line)
        XCTAssertTrue(error.message.contains(fragment), "message '\(error.message)' lacks '\(fragment)'", file: file, line: line)
        return error
    } catch {
        XCTFail("expected a TOMLError, got \(error)", file: file, line: line)
        return nil
    }
}
