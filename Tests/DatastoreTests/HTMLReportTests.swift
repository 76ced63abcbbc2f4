import Foundation
import XCTest
import TestSupport

/// The HTML report as a browser shows it: headless Chromium loads the page, the test reads
/// the DOM it rendered (counts, the filter and sort working, nothing injected) and keeps a
/// screenshot under `.build/test-artifacts/`.
final class HTMLReportTests: XCTestCase {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Chromium's rendering of `url`: its DOM (`--dump-dom`), or a screenshot to `screenshot`.
    func chromium(_ url: String, screenshot: String? = nil, profile: String) throws -> String {
        let binary = try XCTUnwrap(Self.chromium, "Chromium is not installed (scripts/bootstrap --test installs it)")
        var args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                    "--user-data-dir=" + profile, "--window-size=1280,1800"]
        args += screenshot.map { ["--screenshot=" + $0] } ?? ["--dump-dom"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = args + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "chromium")
        return String(decoding: data, as: UTF8.self)
    }

    func count(_ id: String, in dom: String) -> Int? {
        guard let range = dom.range(of: "id=\"\(id)\">") else { return nil }
        return Int(dom[range.upperBound...].prefix { $0.isNumber })
    }

    func testTheHTMLReportRendersCountsFiltersAndNoValue() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let alpha = HistoryFixture(in: scratch, name: "alpha", commits: 4, perCommit: 2)
        let beta = HistoryFixture(in: scratch, name: "beta", commits: 3, perCommit: 1)
        // A hostile file name: markup and a quote, as a scanned tree may have.
        let hostileSecret = TestSecrets.make()
        let hostileName = "evil\"><img src=x onerror=alert(1)>.swift"
        try Data("let k = \"\(hostileSecret)\"\n".utf8).write(to: URL(fileURLWithPath: beta.path + "/" + hostileName))
        CLI.git(beta.path, ["add", "-A"])
        CLI.git(beta.path, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "hostile"])
        let db = scratch.path + "/d.db"
        for repo in [alpha.path, beta.path] {
            XCTAssertEqual(CLI.keyshape(["history", repo, "--rules", rules, "--no-builtin-rules", "--datastore", db, "-q"]).status, 1)
        }
        let lines = CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"]).stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 8 + 3 + 1)
        let first = try XCTUnwrap(JSONReport.object(lines[0]))
        let fingerprint = try XCTUnwrap(first["fingerprint"] as? String)
        XCTAssertEqual(CLI.keyshape(["triage", "--datastore", db, fingerprint, "--status", "accepted",
                                     "--note", "</script><script>document.title='pwned'</script>"]).status, 0)

        let page = scratch.path + "/report.html"
        let r = CLI.keyshape(["report", "--datastore", db, "--format", "html", "--status", "open,accepted", "--output", page])
        XCTAssertEqual(r.status, 0, "a report succeeds whatever the datastore holds: \(r.stderr)")
        let gate = CLI.keyshape(["report", "--datastore", db, "--status", "open", "--exit-code", "3", "--format", "json"])
        XCTAssertEqual(gate.status, 3, "unless a gate asks")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for secret in alpha.secrets + beta.secrets + [hostileSecret] {
            TestSecrets.assertNoFragment(of: secret, in: Data(html.utf8), "the HTML report")
        }
        // Self-contained: nothing is fetched (the SVG namespace is a name, not a fetch).
        let withoutNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for fetch in ["http:", "https:", "<link", "@import", "url(", "src=\"", "src='", "<iframe", "<img"] {
            XCTAssertFalse(withoutNamespace.contains(fetch), "the page holds \(fetch)")
        }
        XCTAssertTrue(html.contains("Content-Security-Policy"))
        XCTAssertTrue(html.contains("evil&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.swift"), "the hostile name is shown, escaped")
        XCTAssertFalse(html.contains("</script><script>document.title"), "the note is escaped")

        let profile = scratch.path + "/chromium-profile"
        let url = URL(fileURLWithPath: page).absoluteString
        let dom = try chromium(url, profile: profile)
        XCTAssertTrue(dom.contains("<body data-ready=\"1\">"), "the page's script ran")
        XCTAssertEqual(count("total-findings", in: dom), 12)
        XCTAssertEqual(count("total-open", in: dom), 11)
        XCTAssertEqual(count("total-repositories", in: dom), 2)
        XCTAssertEqual(count("total-secrets", in: dom), 12)
        XCTAssertEqual(count("visible-count", in: dom), 12)
        XCTAssertEqual(dom.components(separatedBy: "<tr class=\"finding\"").count - 1, 12)
        XCTAssertEqual(dom.components(separatedBy: "class=\"secret-group\"").count - 1, 12)
        XCTAssertTrue(dom.contains("<title>keyshape report: d.db</title>"), "no injected script ran (it would retitle the page)")
        XCTAssertFalse(dom.contains("<script>document.title"), "the note is text in the DOM, not an element")
        XCTAssertFalse(dom.contains("<img"), "no injected element")
        XCTAssertEqual(dom.components(separatedBy: "class=\"bar\" data-count=").count - 1, 1 + 2 + 0, "rule and repository bars")

        // The filter, as a link or a test sets it: only beta's rows are shown.
        let filtered = try chromium(url + "#filter=beta", profile: profile)
        XCTAssertEqual(count("visible-count", in: filtered), 4)
        XCTAssertEqual(filtered.components(separatedBy: "<tr class=\"finding hidden\"").count - 1, 8)
        let accepted = try chromium(url + "#status=accepted", profile: profile)
        XCTAssertEqual(count("visible-count", in: accepted), 1)
        let both = try chromium(url + "#filter=alpha&status=open", profile: profile)
        XCTAssertEqual(count("visible-count", in: both), first["repository"] as? String == "alpha" ? 7 : 8)
        let sorted = try chromium(url + "#sort=date", profile: profile)
        XCTAssertTrue(sorted.contains("data-key=\"date\" tabindex=\"0\" data-order=\"asc\""), "the date column sorted")

        // The screenshot, kept for a person to look at.
        let artifacts = CLI.root.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let shot = artifacts + "/html-report.png"
        try? FileManager.default.removeItem(atPath: shot)
        _ = try chromium(url, screenshot: shot, profile: profile)
        let png = try XCTUnwrap(FileManager.default.contents(atPath: shot), "no screenshot")
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        XCTAssertGreaterThan(png.count, 10_000)
    }
}
