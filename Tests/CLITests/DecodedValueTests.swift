import Foundation
import XCTest
import TestSupport

/// Encoded values (base64, percent-encoding, escapes, double encodings) are decoded and
/// scanned: found at the encoded text's line, column and byte span with `decoded` in JSON,
/// never leaking the value or its encoded form, and `--max-decode-depth 0` turns it off.
/// Every input is built here, at run time, from fake values no file in the project holds.
final class DecodedValueTests: XCTestCase {
    let secret = canary("Dec0dedQx9Lm7")
    /// A GitHub-token-shaped fake with enough entropy for its rule.
    let token = "ghp_" + String("Zq8Lr2Vx5Tn1Wb7Yk3Hd9Fs4Gj6Pm0Qc2Ae8Uv".prefix(36))

    func b64(_ s: String) -> String { Data(s.utf8).base64EncodedString() }

    struct Found { var rule: String; var line: Int; var column: Int; var byteOffset: Int; var byteLength: Int; var decoded: [String]? }

    func findings(_ run: Run, file: StaticString = #filePath, line: UInt = #line) -> [Found] {
        guard let object = run.report,
              let list = object["findings"] as? [[String: Any]] else {
            XCTFail("no JSON report: \(run.stderr)", file: file, line: line)
            return []
        }
        return list.map { f in
            let l = f["location"] as! [String: Any]
            return Found(rule: f["rule"] as! String, line: l["line"] as? Int ?? 0, column: l["column"] as? Int ?? 0,
                         byteOffset: l["byteOffset"] as! Int, byteLength: l["byteLength"] as! Int, decoded: l["decoded"] as? [String])
        }
    }

    /// Scans one file holding `text`; returns the run and the encoded text's place in it.
    func scan(_ name: String, _ text: String, _ extra: [String] = []) -> Run {
        let tmp = TempDir()
        tmp.write(name, text)
        let run = keyshape(["scan", tmp.path, "--format", "json", "--no-progress"] + extra)
        withExtendedLifetime(tmp) {}
        return run
    }

    /// Line, column (1-based, Unicode scalars) and byte offset of `needle` in `text`.
    func place(of needle: String, in text: String) -> (line: Int, column: Int, offset: Int) {
        let bytes = Array(text.utf8), n = Array(needle.utf8)
        var offset = 0
        while Array(bytes[offset..<offset + n.count]) != n { offset += 1 }
        let before = String(decoding: bytes[..<offset], as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, lines.last!.unicodeScalars.count + 1, offset)
    }

    /// `run` reports one finding, the raw one of `value` in `text`: no second finding of it
    /// from the decoded text around it.
    func assertReportedOnceRaw(_ run: Run, value: String, in text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        let all = findings(run, file: file, line: line)
        XCTAssertEqual(all.count, 1, "\(all)", file: file, line: line)
        XCTAssertNil(all.first?.decoded, file: file, line: line)
        XCTAssertEqual(all.first?.byteOffset, place(of: value, in: text).offset, file: file, line: line)
    }

    func assertFound(_ run: Run, rule: String, encoded: String, in text: String, decoded: [String],
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        let all = findings(run, file: file, line: line)
        let p = place(of: encoded, in: text)
        // Context rules may also fire on the encoded text as it is (`docker-config-auth` on
        // an `auth` field): those are raw findings. The decoded one is exactly one.
        let decodedFindings = all.filter { $0.decoded != nil }
        XCTAssertEqual(decodedFindings.count, 1, "\(all)", file: file, line: line)
        guard let f = decodedFindings.first else { return }
        XCTAssertEqual(f.rule, rule, file: file, line: line)
        XCTAssertEqual(f.decoded, decoded, file: file, line: line)
        XCTAssertEqual([f.line, f.column, f.byteOffset, f.byteLength], [p.line, p.column, p.offset, encoded.utf8.count], file: file, line: line)
        for (what, value) in [("value", secret), ("token", token), ("encoded text", encoded)] {
            assertNoFragment(of: value, in: run.stdout + run.stderr, "\(what) in the report", file: file, line: line)
        }
    }

    func testKubernetesSecretWithABase64EncodedKey() {
        let encoded = b64(token)
        let yaml = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: deploy\ntype: Opaque\ndata:\n  username: \(b64("deploy-bot"))\n  github-token: \(encoded)\n"
        assertFound(scan("k8s/secret.yaml", yaml), rule: "github-pat", encoded: encoded, in: yaml, decoded: ["base64"])
        // Off: only what context rules see in the encoded text as it is.
        let off = findings(scan("k8s/secret.yaml", yaml, ["--max-decode-depth", "0"]))
        XCTAssertFalse(off.contains { $0.decoded != nil || $0.rule == "github-pat" }, "\(off)")
    }

    /// A secret a provider's rule finds as it stands and the same provider's rule finds
    /// decoded (a kubeconfig's `client-key-data`: private-key-base64 and, decoded,
    /// private-key) is one finding, the raw one; with the raw rule off, the decoded one stands.
    /// The docker `auth` test above keeps both: different providers' rules.
    func testOneProvidersRawAndDecodedFindingsOfOneSecretAreOneFinding() {
        // A key-shaped body from a fixed pseudo-random sequence (no key in this file).
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var state: UInt64 = 0x9E3779B97F4A7C15, body = ""
        for _ in 0..<12 {
            for _ in 0..<64 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                body.append(alphabet[Int(state >> 58)])
            }
            body += "\n"
        }
        let pem = "-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\n"
        let data = b64(pem)
        let yaml = "users:\n- name: admin\n  user:\n    client-key-data: \(data)\n"
        let all = findings(scan("kubeconfig", yaml))
        XCTAssertEqual(all.map(\.rule), ["private-key-base64"], "\(all)")
        XCTAssertEqual(all.first?.byteOffset, place(of: data, in: yaml).offset)
        let decodedOnly = findings(scan("kubeconfig", yaml, ["--disable-rule", "private-key-base64"]))
        XCTAssertEqual(decodedOnly.map(\.rule), ["private-key"], "\(decodedOnly)")
        XCTAssertEqual(decodedOnly.first?.decoded, ["base64"])
        XCTAssertEqual(decodedOnly.first?.byteOffset, place(of: data, in: yaml).offset, "at the encoded span")
    }

    func testDockerConfigAuth() {
        let auth = b64("deploy-bot:" + secret)
        let json = "{\n  \"auths\": {\n    \"registry.example.invalid\": {\n      \"auth\": \"\(auth)\"\n    }\n  }\n}\n"
        assertFound(scan(".docker/config.json", json), rule: "keyshape-canary", encoded: auth, in: json, decoded: ["base64"])
    }

    func testPercentEncodedURL() {
        // The underscores encoded, so the raw text holds no match.
        let url = "https://example.invalid/cb?next=https%3A%2F%2Fapi.example.invalid%2F%3Ftoken%3D" + secret.replacingOccurrences(of: "_", with: "%5F")
        let text = "# callback\nredirect_uri: \(url)\n"
        assertFound(scan("app.yaml", text), rule: "keyshape-canary", encoded: url, in: text, decoded: ["percent"])
    }

    func testEscapedJSONString() {
        let escaped = secret.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
        let json = "{\"name\": \"svc\", \"key\": \"\(escaped)\"}\n"
        assertFound(scan("settings.json", json), rule: "keyshape-canary", encoded: escaped, in: json, decoded: ["json-escape"])
    }

    func testDoubleEncoding() {
        let inner = "token%3D" + secret.replacingOccurrences(of: "_", with: "%5F")
        let outer = b64(inner)
        let text = "state = \"\(outer)\"\n"
        assertFound(scan("state.toml", text), rule: "keyshape-canary", encoded: outer, in: text, decoded: ["base64", "percent"])
        // One level is not enough for it.
        XCTAssertEqual(scan("state.toml", text, ["--max-decode-depth", "1"]).status, 0)
        let twice = b64(b64("user:" + token))
        let auth = "auth: \(twice)\n"
        assertFound(scan("auth.yaml", auth), rule: "github-pat", encoded: twice, in: auth, decoded: ["base64", "base64"])
    }

    func testASecretFoundRawAndDecodedAtTheSamePlaceIsReportedOnce() {
        // The token sits raw inside a percent-encoded URL: the raw finding, not a second one
        // for the decoded URL.
        let url = "https://example.invalid/cb?next=%2Fhome&token=" + token
        let text = "link: \(url)\n"
        assertReportedOnceRaw(scan("links.txt", text), value: token, in: text)
    }

    func testASecretFoundRawWithPercentEscapesAndDecodedIsReportedOnce() {
        // An Azure SAS signature ends in `%3D` raw and in `=` in the URL's decoded text: the
        // raw finding only.
        var g = SeededGenerator(seed: 2026)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let sig = String(decoding: (0..<43).map { _ in alphabet[Int(g.next() % UInt64(alphabet.count))] }, as: UTF8.self) + "%3D"
        let url = "https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00%3A00%3A00Z&sig=" + sig
        let text = "url: \(url)\n"
        assertReportedOnceRaw(scan("sas.txt", text), value: sig, in: text)
    }

    func testImagesAndIntegrityHashesGiveNothing() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        var g = SeededGenerator(seed: 12345)
        png += g.bytes(2048)
        let image = Data(png).base64EncodedString()
        let digest = Data(png[100..<148]).base64EncodedString()
        let html = "<img src=\"data:image/png;base64,\(image)\">\n<script src=\"https://cdn.example.invalid/a.js\" integrity=\"sha384-\(digest)\"></script>\n"
        let run = scan("index.html", html)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(findings(run).count, 0)
    }

    func testEveryFormatAndStreamKeepsTheValueAndItsEncodingOut() {
        let encoded = b64("user:" + secret)
        let tmp = TempDir()
        tmp.write("config.json", "{\"auth\": \"\(encoded)\"}\n")
        for format in ["text", "json", "jsonl", "sarif"] {
            let report = tmp.path + "/out/report.\(format)"
            let baseline = tmp.path + "/out/baseline.json"
            try? FileManager.default.createDirectory(atPath: tmp.path + "/out", withIntermediateDirectories: true)
            let toStdout = keyshape(["scan", tmp.path + "/config.json", "--format", format, "--no-progress"])
            let toFile = keyshape(["scan", tmp.path + "/config.json", "--format", format, "--output", report, "--write-baseline", baseline, "--progress"])
            XCTAssertEqual(toStdout.status, 1, format)
            XCTAssertEqual(toFile.status, 1, format)
            let written = tmp.read("out/report.\(format)") + tmp.read("out/baseline.json")
            XCTAssertFalse(written.isEmpty, format)
            for value in [secret, encoded] {
                for (what, text) in [("stdout", toStdout.stdout), ("stderr", toStdout.stderr + toFile.stderr), ("files", written)] {
                    assertNoFragment(of: value, in: text, "\(format) \(what)")
                }
            }
            if format == "text" { XCTAssertTrue(toStdout.stdout.contains(":1:11: keyshape-canary "), toStdout.stdout) }
        }
    }

    func testHistoryAndStagedDecodeToo() {
        let repo = GitFixture()
        let encoded = b64(token)
        let yaml = "data:\n  token: \(encoded)\n"
        repo.write("secret.yaml", yaml)
        repo.commit("add secret")
        let history = keyshape(["history", repo.path, "--format", "json", "--no-progress"])
        assertFound(history, rule: "github-pat", encoded: encoded, in: yaml, decoded: ["base64"])
        repo.write("staged.yaml", yaml)
        repo.git(["add", "staged.yaml"])
        let staged = keyshape(["staged", repo.path, "--format", "json", "--no-progress"])
        assertFound(staged, rule: "github-pat", encoded: encoded, in: yaml, decoded: ["base64"])
        let off = findings(keyshape(["staged", repo.path, "--format", "json", "--no-progress", "--max-decode-depth", "0"]))
        XCTAssertFalse(off.contains { $0.decoded != nil || $0.rule == "github-pat" }, "\(off)")
    }

    func testTheFlagIsChecked() {
        let bad = keyshape(["scan", ".", "--max-decode-depth", "-1"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--max-decode-depth"), bad.stderr)
        XCTAssertEqual(keyshape(["scan", ".", "--max-decode-depth", "17"]).status, 2)
    }
}
