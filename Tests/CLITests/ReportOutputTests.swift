import Foundation
import TestSupport
import XCTest

/// Several reports from one run (`--json-output`, `--jsonl-output`, `--sarif-output` and the
/// other formats' `--FORMAT-output`), the JUnit and CSV formats, `--quiet` and `--color`:
/// each holds no fragment of a planted key.
final class ReportOutputTests: XCTestCase {
    let secret = canary("outputs1")

    func tree() -> TempDir {
        let tmp = TempDir()
        tmp.write("tree/src/app.env", "token = \(secret)\n")
        return tmp
    }

    func testReportFilesBesideTextOnStdoutLeakNothing() throws {
        let tmp = tree()
        let files = ["json", "jsonl", "sarif", "junit", "csv"].map { ($0, tmp.path + "/report.\($0)") }
        let r = keyshape(["scan", tmp.path + "/tree", "--no-progress"] + files.flatMap { ["--\($0.0)-output", $0.1] })
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1)
        XCTAssertTrue(r.stdout.hasPrefix("src/app.env:1:9: keyshape-canary "), r.stdout)
        for (what, text) in [("stdout", r.stdout), ("stderr", r.stderr)] { assertNoFragment(of: secret, in: text, what) }
        for (format, path) in files {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            XCTAssertFalse(text.isEmpty, "\(format) written")
            assertNoFragment(of: secret, in: text, "--\(format)-output")
        }
        let json = try XCTUnwrap(JSONReport.object(Data(contentsOf: URL(fileURLWithPath: files[0].1))))
        XCTAssertEqual((json["findings"] as! [Any]).count, 1)
        XCTAssertEqual(tmp.read("report.jsonl").split(separator: "\n").count, 1)
        XCTAssertTrue(tmp.read("report.junit").contains("<failure type=\"keyshape-canary\""))
        XCTAssertTrue(tmp.read("report.csv").contains("\r\nkeyshape-canary,"))
        assertValidSARIF([files[2].1])
    }

    func testReportFilesAreWrittenWhenStdoutFails() throws {
        let tmp = tree()
        let sarif = tmp.path + "/r.sarif", json = tmp.path + "/r.json", errors = tmp.path + "/stderr"
        let end = runWithStreams(Binary.url, ["scan", tmp.path + "/tree", "--no-progress", "--sarif-output", sarif, "--json-output", json],
                                 stdout: .full, stderr: .file(errors))
        XCTAssertEqual(end.exitStatus, 2, "a report that could not be delivered fails closed")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sarif))))
        let object = try XCTUnwrap(JSONReport.object(Data(contentsOf: URL(fileURLWithPath: json))))
        XCTAssertEqual((object["findings"] as! [Any]).count, 1)
        assertNoFragment(of: secret, in: tmp.read("stderr"), "stderr")
    }

    func testJUnitAndCSVOnStdoutLeakNothingAndListErrors() throws {
        let tmp = tree()
        for format in ["junit", "csv"] {
            let r = keyshape(["scan", tmp.path + "/tree", tmp.path + "/missing", "--format", format, "--no-progress"])
            XCTAssertEqual(r.status, 2, format)
            assertNoFragment(of: secret, in: r.stdout + r.stderr, format)
            XCTAssertTrue(r.stdout.contains("keyshape-canary"), "\(format): the finding is there")
            if format == "junit" {
                XCTAssertTrue(r.stdout.contains("<error type=\"scan-error\""), "errors are error elements")
            } else {
                XCTAssertTrue(r.stderr.contains("keyshape: error: "), "CSV has no error rows: they go to stderr")
            }
        }
    }

    func testQuietDropsTheSummaryButNotErrors() {
        let tmp = tree()
        let loud = keyshape(["scan", tmp.path + "/tree", "--no-progress"])
        XCTAssertTrue(loud.stderr.contains("keyshape: 1 finding;"), loud.stderr)
        let quiet = keyshape(["scan", tmp.path + "/tree", "-q", "--no-progress"])
        XCTAssertEqual(quiet.status, 1)
        XCTAssertEqual(quiet.stderr, "")
        XCTAssertEqual(quiet.stdout, loud.stdout)
        let failing = keyshape(["scan", tmp.path + "/tree", tmp.path + "/missing", "--quiet", "--no-progress"])
        XCTAssertEqual(failing.status, 2)
        XCTAssertTrue(failing.stderr.contains("keyshape: error: "), failing.stderr)
        XCTAssertFalse(failing.stderr.contains("finding"), failing.stderr)
    }

    func testColourIsKeyshapesOwnAndOnlyWhenAsked() {
        let tmp = TempDir()
        // A file name that carries its own colour code: it must stay escaped.
        tmp.write("tree/x\u{1B}[31m.env", "token = \(secret)\n")
        let always = keyshape(["scan", tmp.path + "/tree", "--color", "always", "--no-progress"], env: ["NO_COLOR": "1"])
        XCTAssertTrue(always.stdout.hasPrefix("\u{1B}[36mx\\x1b[31m.env:1:9\u{1B}[0m: \u{1B}[1;31mkeyshape-canary\u{1B}[0m"), always.stdout)
        for choice in ["auto", "never"] {
            let r = keyshape(["scan", tmp.path + "/tree", "--color", choice, "--no-progress"])
            XCTAssertFalse(r.stdout.contains("\u{1B}"), "\(choice): stdout is a pipe here")
            XCTAssertTrue(r.stdout.hasPrefix("x\\x1b[31m.env:1:9: "), r.stdout)
        }
        let bad = keyshape(["scan", tmp.path + "/tree", "--color", "sometimes"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--color: expected auto, always or never"), bad.stderr)
    }

    func testFormatErrorsComeFromTheRegistry() {
        let scan = keyshape(["scan", ".", "--format", "yaml"])
        XCTAssertEqual(scan.status, 2)
        XCTAssertTrue(scan.stderr.contains("--format: expected text, json, jsonl, sarif, junit, csv, html, markdown or gitlab"), scan.stderr)
        let rules = keyshape(["rules", "list", "--format", "sarif"])
        XCTAssertEqual(rules.status, 2, "rules list has no SARIF shape; it used to print JSON")
        XCTAssertTrue(rules.stderr.contains("--format sarif has no rule-list form; `rules list` writes text, json, jsonl or csv"), rules.stderr)
        let unknown = keyshape(["rules", "list", "--format", "yaml"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("--format: expected text, json, jsonl or csv for `rules list`"), unknown.stderr)
        let csv = keyshape(["rules", "list", "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.hasPrefix("id,description,tags,keywords\r\n"))
        XCTAssertTrue(csv.stdout.contains("\r\nkeyshape-canary,"))
        let jsonl = keyshape(["rules", "list", "--format", "jsonl"])
        XCTAssertTrue(jsonl.stdout.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }
}

/// Validates SARIF files with scripts/validate-sarif against the official schema, as
/// CanaryTests does: scripts/test exports KEYSHAPE_PYTHON (the interpreter that has
/// jsonschema); else PATH's python3.
func assertValidSARIF(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) {
    let v = ProcessInfo.processInfo.environment["KEYSHAPE_PYTHON"].map { runProcess($0, [Repo.path("scripts/validate-sarif")] + paths) }
        ?? runProcess("/usr/bin/env", ["python3", Repo.path("scripts/validate-sarif")] + paths)
    XCTAssertEqual(v.status, 0, v.stderr + v.stdout, file: file, line: line)
}

/// `scan` writes text and JSONL as each file is done; `--sort` (and every other report)
/// waits for the whole scan, in path order.
final class StreamedOutputTests: XCTestCase {
    func testStreamedLinesAreTheSortedReportRegroupedByFile() {
        let tmp = TempDir()
        for i in 0..<12 {
            let key = canary("stream\(i)")
            tmp.write("tree/d\(i % 3)/f\(i).txt", "a = \(key)x\nb = \(key)y\n")
        }
        for format in ["text", "jsonl"] {
            // One key for both runs: their secret hashes are compared too.
            let sorted = keyshape(["scan", tmp.path + "/tree", "--sort", "--no-progress", "--format", format, "--jobs", "2"], env: keyedEnvironment())
            let streamed = keyshape(["scan", tmp.path + "/tree", "--no-progress", "--format", format, "--jobs", "2"], env: keyedEnvironment())
            XCTAssertEqual(sorted.status, 1)
            XCTAssertEqual(streamed.status, 1)
            let s = sorted.stdout.split(separator: "\n").map(String.init)
            let t = streamed.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(s.count, 24, format)
            XCTAssertEqual(t.sorted(), s.sorted(), "\(format): the same lines")
            // Each file's two findings are adjacent and in line order.
            for i in 0..<12 {
                let name = "d\(i % 3)/f\(i).txt"
                let at = t.indices.filter { t[$0].contains(name) }
                XCTAssertEqual(at.count, 2, name)
                if at.count == 2 {
                    XCTAssertEqual(at[1], at[0] + 1, "\(format): \(name) together")
                    XCTAssertTrue(t[at[0]].contains(format == "text" ? ":1:" : "\"line\":1"), t[at[0]])
                }
            }
        }
        // --sort's text is in path order.
        let paths = keyshape(["scan", tmp.path + "/tree", "--sort", "--no-progress"]).stdout
            .split(separator: "\n").map { String($0.split(separator: ":")[0]) }
        XCTAssertEqual(paths.count, 24)
        XCTAssertEqual(paths, paths.sorted())
    }
}
