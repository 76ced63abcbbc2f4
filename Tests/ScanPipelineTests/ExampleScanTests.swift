import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline

/// `rules check` runs examples through the scan pipeline, so an inline allow marker in an
/// example does what it does in a scan.
final class ExampleScanTests: XCTestCase {
    func problems(_ examples: String, _ negatives: String) throws -> [String] {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "demo-key"
        regex = '''demo_([a-z0-9]{8})'''
        keywords = ["demo_"]
        examples = [\(examples)]
        negativeExamples = [\(negatives)]
        """, file: "c.toml")
        return RuleChecker.check(files: [file], requireExamples: false, runner: ExampleScan.runner).map(\.message)
    }

    func testAnExampleOnAnInlineAllowedLineFailsBecauseAScanWouldNotReportIt() throws {
        let found = try problems("'''x = \"demo_«ab12cd34»\" # keyshape:allow''', '''y = \"demo_«ab12cd35»\"'''", "'''demo_short'''")
        XCTAssertEqual(found, ["example 1 is on a line with an inline allow marker; a scan would not report it"])
        // The marker on another line of the example does not hide it.
        XCTAssertEqual(try problems("'''# gitleaks:allow\nx = \"demo_«ab12cd34»\"'''", "'''demo_short'''"), [])
    }

    func testAnInlineMarkerDoesNotMakeANegativeExamplePass() throws {
        let found = try problems("'''x = \"demo_«ab12cd34»\"'''", "'''demo_zz12cd34 # keyshape:allow''', '''demo_short'''")
        XCTAssertEqual(found, ["negative example 1 is reported by `demo-key`"])
    }
}
