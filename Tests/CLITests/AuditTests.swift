import Foundation
import XCTest
import TestSupport

/// `keyshape audit`: sources, history and build products in one report, product paths
/// kept apart by their folder, and a baseline written by audit silencing audit.
final class AuditTests: XCTestCase {
    func testSourcesHistoryAndProductsInOneReportAndBaselineRoundTrip() throws {
        let repo = GitFixture()
        let inSource = canary("audit1"), inProduct = canary("audit2")
        repo.write("src/config.txt", "token = \(inSource)\n")
        let commit = repo.commit("add config")
        let products = TempDir()
        products.write("App.app/App", "\u{0}\u{0}binary\u{0}" + inProduct + "\u{0}")
        let productDir = products.path + "/build"
        try FileManager.default.createDirectory(atPath: productDir, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: products.path + "/App.app", toPath: productDir + "/App.app")

        let report = keyshapeJSON(["audit", repo.path, "--products", productDir], secrets: [inSource, inProduct])
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(places(report.findings), [
            "\(commit) src/config.txt:1",
            "binary \(productDir)/App.app/App:-",
            "file src/config.txt:1",
        ].sorted())
        XCTAssertTrue(report.run.stderr.contains("keyshape audit: history: 1 findings; 1 commits"), report.run.stderr)

        let baseline = products.path + "/baseline.json"
        let first = keyshape(["audit", repo.path, "--products", productDir, "--write-baseline", baseline, "--no-progress"])
        XCTAssertEqual(first.status, 1)
        let again = keyshape(["audit", repo.path, "--products", productDir, "--baseline", baseline, "--no-progress"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertEqual(again.stdout, "")
    }
}
