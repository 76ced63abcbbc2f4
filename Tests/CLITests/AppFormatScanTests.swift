import Foundation
import TestSupport
import XCTest

/// Keys inside the formats app bundles carry (binary plists, DEX, Android binary XML and
/// resource tables, Java class files) are found at their string, with the format and the
/// place in the location, in `scan`, inside archives, in `history` and in `staged`.
///
/// The planted key is 70 characters long: each format stores that length (`F`) right before
/// it, so the raw bytes read `Fsk_live_...` and the Stripe rule (no letter before the key)
/// cannot match them; only the strings the parsers list can. The previous release found
/// none of these seven.
final class AppFormatScanTests: XCTestCase {
    let key: String = TestKeys.stripe(bodyLength: 62)

    /// File name, format, section, and how the key is encoded there.
    let expected: [(name: String, format: String, section: String, encoding: String)] = [
        ("Info.plist", "bplist", "CFBundleURLTypes/0/StripeKey", "utf8"),
        ("Localized.plist", "bplist", "Schl\u{fc}ssel", "utf16be"),
        ("Data.plist", "bplist", "Blobs/1", "utf8"),
        ("classes.dex", "dex", "string_data", "utf8"),
        ("App.class", "java-class", "constant_pool", "utf8"),
        ("AndroidManifest.xml", "android-xml", "string_pool", "utf16le"),
        ("resources.arsc", "arsc", "string_pool", "utf8"),
    ]

    func makeFixtures(in dir: String) {
        let r = runProcess("/usr/bin/env", ["python3", Repo.path("Fixtures/app-formats/make-app-fixtures.py"), dir, key])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func encoded(_ encoding: String) -> [UInt8] {
        switch encoding {
        case "utf16be": return key.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
        case "utf16le": return key.utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        default: return Array(key.utf8)
        }
    }

    func offset(of needle: [UInt8], inFile path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 0...(bytes.count - needle.count) where Array(bytes[i..<(i + needle.count)]) == needle { return i }
        throw NSError(domain: "AppFormatScanTests", code: 1)
    }

    func report(_ args: [String], cwd: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> (run: Run, findings: [[String: Any]], errors: [[String: Any]]) {
        let r = keyshape(args + ["--format", "json", "--no-progress"], cwd: cwd)
        assertNoFragment(of: key, in: r.stdout, "stdout", file: file, line: line)
        assertNoFragment(of: key, in: r.stderr, "stderr", file: file, line: line)
        let object = try XCTUnwrap(r.report, r.stderr, file: file, line: line)
        return (r, object["findings"] as? [[String: Any]] ?? [], object["errors"] as? [[String: Any]] ?? [])
    }

    func location(_ f: [String: Any]) -> [String: Any] { f["location"] as? [String: Any] ?? [:] }

    func testEachFormatIsFoundAtItsStringWithFormatAndSection() throws {
        let dir = TempDir()
        makeFixtures(in: dir.path)
        let (r, findings, errors) = try report(["scan", dir.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(errors.count, 0, r.stdout)
        XCTAssertEqual(findings.count, expected.count, "one finding a file, none twice: \(r.stdout)")
        for e in expected {
            let matching = findings.filter { location($0)["path"] as? String == e.name }
            XCTAssertEqual(matching.count, 1, e.name)
            guard let f = matching.first else { continue }
            let l = location(f)
            XCTAssertEqual(f["rule"] as? String, "stripe-live-secret-key", e.name)
            XCTAssertEqual(l["kind"] as? String, "binary", e.name)
            XCTAssertEqual(l["format"] as? String, e.format, e.name)
            XCTAssertEqual(l["section"] as? String, e.section, e.name)
            let at = try offset(of: encoded(e.encoding), inFile: dir.path + "/" + e.name)
            XCTAssertEqual(l["fileOffset"] as? Int, at, e.name)
            XCTAssertEqual(l["byteOffset"] as? Int, at, e.name)
            XCTAssertEqual(l["byteLength"] as? Int, encoded(e.encoding).count, e.name)
        }
        let text = keyshape(["scan", dir.path, "--no-progress"])
        let dex = try offset(of: Array(key.utf8), inFile: dir.path + "/classes.dex")
        XCTAssertTrue(text.stdout.contains("classes.dex:string_data+0x\(String(dex, radix: 16)): stripe-live-secret-key"), text.stdout)
        let plist = try offset(of: Array(key.utf8), inFile: dir.path + "/Info.plist")
        XCTAssertTrue(text.stdout.contains("Info.plist:CFBundleURLTypes/0/StripeKey+0x\(String(plist, radix: 16)): stripe-live-secret-key"), text.stdout)
    }

    func testInsideAnIpaAnApkAndAJar() throws {
        let dir = TempDir()
        makeFixtures(in: dir.path + "/src")
        let script = """
        set -e; cd src
        mkdir -p Payload/App.app com/example && cp Info.plist Payload/App.app/ && cp App.class com/example/
        zip -q -r ../App.ipa Payload && zip -q -0 ../app.apk classes.dex AndroidManifest.xml resources.arsc && zip -q -r ../lib.jar com
        cd .. && rm -r src
        """
        XCTAssertEqual(runProcess("/bin/sh", ["-c", script], cwd: dir.path).status, 0)
        let (r, findings, errors) = try report(["scan", dir.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(errors.count, 0, r.stdout)
        let want: [(String, String, String, String)] = [
            ("App.ipa", "Payload/App.app/Info.plist", "bplist", "CFBundleURLTypes/0/StripeKey"),
            ("app.apk", "classes.dex", "dex", "string_data"),
            ("app.apk", "AndroidManifest.xml", "android-xml", "string_pool"),
            ("app.apk", "resources.arsc", "arsc", "string_pool"),
            ("lib.jar", "com/example/App.class", "java-class", "constant_pool"),
        ]
        XCTAssertEqual(findings.count, want.count, r.stdout)
        for (path, member, format, section) in want {
            let f = findings.first { location($0)["path"] as? String == path && location($0)["archive"] as? [String] == [member] }
            let l = location(try XCTUnwrap(f, "\(path)!\(member): \(r.stdout)"))
            XCTAssertEqual(l["format"] as? String, format, member)
            XCTAssertEqual(l["section"] as? String, section, member)
        }
        let text = keyshape(["scan", dir.path, "--no-progress"])
        XCTAssertTrue(text.stdout.contains("lib.jar!com/example/App.class:constant_pool+0x"), text.stdout)
    }

    /// Blobs are parsed from the bytes git hands over, so history and staged give the same
    /// place and the same fingerprint as scan.
    func testHistoryAndStagedGiveScansPlaceAndFingerprint() throws {
        let repo = GitFixture()
        makeFixtures(in: repo.path)
        let scan = try report(["scan", repo.path])
        XCTAssertEqual(scan.findings.count, expected.count, scan.run.stdout)
        func byPath(_ findings: [[String: Any]]) -> [String: (String?, String?, Int?, String?)] {
            Dictionary(findings.map { f in
                let l = location(f)
                return (l["path"] as? String ?? "", (l["format"] as? String, l["section"] as? String, l["fileOffset"] as? Int, f["fingerprint"] as? String))
            }, uniquingKeysWith: { a, _ in a })
        }
        let want = byPath(scan.findings)
        repo.git(["add", "-A"])
        let staged = try report(["staged", repo.path])
        XCTAssertEqual(staged.run.status, 1, staged.run.stderr)
        XCTAssertEqual(staged.errors.count, 0, staged.run.stdout)
        XCTAssertEqual(byPath(staged.findings).mapValues { "\($0)" }, want.mapValues { "\($0)" })
        _ = repo.commit("app files")
        let history = try report(["history", repo.path])
        XCTAssertEqual(history.run.status, 1, history.run.stderr)
        XCTAssertEqual(history.errors.count, 0, history.run.stdout)
        XCTAssertEqual(byPath(history.findings).mapValues { "\($0)" }, want.mapValues { "\($0)" })
    }

    /// A blob over the 8 MiB chunk size is streamed from git, not held in a batch: an app-format
    /// one is still parsed (held whole for the parse, as `scan` reads the file whole), so the
    /// key behind its length byte is found at the same place and fingerprint as `scan` gives.
    /// Each fixture is padded past 9 MiB where its format allows trailing bytes (DEX, class
    /// file, Android chunks), and the plist holds a 9 MiB `data` value (its trailer must stay
    /// last). The previous build scanned such blobs raw and found none of them.
    func testAppFormatBlobsOverTheChunkSizeAreParsedInHistoryAndStaged() throws {
        let repo = GitFixture()
        makeFixtures(in: repo.path)
        for name in ["classes.dex", "App.class", "AndroidManifest.xml", "resources.arsc"] {
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: repo.path + "/" + name))
            handle.seekToEndOfFile()
            handle.write(Data(count: 9 << 20))
            handle.closeFile()
        }
        let script = "import plistlib, sys; open(sys.argv[1], 'wb').write(plistlib.dumps({'Padding': bytes(9 << 20), 'StripeKey': sys.argv[2]}, fmt=plistlib.FMT_BINARY))"
        XCTAssertEqual(runProcess("/usr/bin/env", ["python3", "-c", script, repo.path + "/Big.plist", key]).status, 0)
        for name in ["Info.plist", "Localized.plist", "Data.plist"] { repo.remove(name) }
        let scan = try report(["scan", repo.path])
        XCTAssertEqual(scan.run.status, 1, scan.run.stderr)
        XCTAssertEqual(scan.errors.count, 0, scan.run.stdout)
        func places(_ findings: [[String: Any]]) -> [String] {
            findings.map { f in
                let l = location(f)
                return "\(l["path"] as? String ?? "") \(l["format"] as? String ?? "") \(l["section"] as? String ?? "") \(l["fileOffset"] as? Int ?? -1) \(f["fingerprint"] as? String ?? "")"
            }.sorted()
        }
        let want = places(scan.findings)
        XCTAssertEqual(want.count, 5, scan.run.stdout)
        XCTAssertTrue(want.contains { $0.hasPrefix("Big.plist bplist StripeKey ") }, "\(want)")
        repo.git(["add", "-A"])
        let staged = try report(["staged", repo.path])
        XCTAssertEqual(staged.run.status, 1, staged.run.stderr)
        XCTAssertEqual(staged.errors.count, 0, staged.run.stdout)
        XCTAssertEqual(places(staged.findings), want)
        _ = repo.commit("big app files")
        let history = try report(["history", repo.path])
        XCTAssertEqual(history.run.status, 1, history.run.stderr)
        XCTAssertEqual(history.errors.count, 0, history.run.stdout)
        XCTAssertEqual(places(history.findings), want)
    }

    /// A plist's key names are data: a key used as a dict key is found (as a string of its
    /// own) but its name is never printed as a place, neither for itself nor for the values
    /// under it, which keep the names above it.
    func testAKeyUsedAsADictKeyIsNeverAPlaceName() throws {
        let dir = TempDir()
        let script = "import plistlib, sys; open(sys.argv[1], 'wb').write(plistlib.dumps({'Settings': {sys.argv[2]: 'enabled'}, 'Other': 'x'}, fmt=plistlib.FMT_BINARY))"
        XCTAssertEqual(runProcess("/usr/bin/env", ["python3", "-c", script, dir.path + "/Keys.plist", key]).status, 0)
        for format in ["json", "text", "sarif", "csv"] {
            let r = keyshape(["scan", dir.path, "--format", format, "--no-progress"])
            XCTAssertEqual(r.status, 1, r.stderr)
            assertNoFragment(of: key, in: r.stdout, "\(format) stdout")
            assertNoFragment(of: key, in: r.stderr, "\(format) stderr")
        }
        let (_, findings, _) = try report(["scan", dir.path])
        let l = location(try XCTUnwrap(findings.first, "the key is found"))
        XCTAssertEqual(l["format"] as? String, "bplist")
        XCTAssertNil(l["section"], "the key's own place name would be the key")
        XCTAssertEqual(l["fileOffset"] as? Int, try offset(of: Array(key.utf8), inFile: dir.path + "/Keys.plist"))
    }

    /// A binary plist's dict values are read after their keys, as assignments: a value under
    /// a credential's name (`BackendAPIToken`, `Nested/ClientSecret`) is found by the generic
    /// rules at its own bytes, as an XML `Info.plist` is; a value under a key that is no plain
    /// name (quotes, `=`, a newline in it) gets no name written before it, and a value under a
    /// name that says nothing is not reported.
    func testPlistValuesAreReadUnderTheirKeyNames() throws {
        let dir = TempDir()
        let token = "Zr4kP8wQ2nVx" + "9mLtHq7vK2mX", secret = "hK3pW9zQ2mLx" + "7RtV4nB8sC", odd = "Qm7XvR2pLk9T" + "zW4nBc8YsJ3d"
        let build = "Vb2Mk8Zr4Tx6" + "Jc5Nw7Qy3Gf9"
        let script = """
        import plistlib, sys
        d = {'CFBundleIdentifier': 'io.internal.storefront', 'BackendAPIToken': sys.argv[2], 'Nested': {'ClientSecret': sys.argv[3]},
             'x" = "1"\\nAPI_TOKEN': sys.argv[4], 'BuildNumber': sys.argv[5]}
        open(sys.argv[1], 'wb').write(plistlib.dumps(d, fmt=plistlib.FMT_BINARY))
        """
        let made = runProcess("/usr/bin/env", ["python3", "-c", script, dir.path + "/Info.plist", token, secret, odd, build])
        XCTAssertEqual(made.status, 0, made.stderr)
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress", "--no-config"])
        for s in [token, secret, odd, build] { assertNoFragment(of: s, in: r.stdout + r.stderr, "report") }
        let object = try XCTUnwrap(r.report, r.stderr)
        let findings = object["findings"] as? [[String: Any]] ?? []
        let got = findings.map { "\($0["rule"] as? String ?? "") \(location($0)["section"] as? String ?? "-") \(location($0)["byteOffset"] as? Int ?? -1)" }.sorted()
        let want = ["generic-secret Nested/ClientSecret \(try offset(of: Array(secret.utf8), inFile: dir.path + "/Info.plist"))",
                    "generic-token BackendAPIToken \(try offset(of: Array(token.utf8), inFile: dir.path + "/Info.plist"))"].sorted()
        XCTAssertEqual(got, want)
    }

    /// A file whose magic names a format but whose structure is broken is an error entry
    /// (exit 2) naming the format, never a trap, and its bytes are still scanned raw.
    func testMalformedFilesAreErrorEntries() throws {
        let dir = TempDir()
        makeFixtures(in: dir.path + "/src")
        var dex = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path + "/src/classes.dex")))
        dex.replaceSubrange(56..<60, with: [0xff, 0xff, 0xff, 0xff])
        try Data(dex).write(to: URL(fileURLWithPath: dir.path + "/bad.dex"))
        let plist = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path + "/src/Info.plist")))
        // The trailer is gone; a raw-visible copy of the key follows, which the raw scan finds.
        try Data(Array(plist.prefix(plist.count - 20)) + Array(" \(key) ".utf8) + [0]).write(to: URL(fileURLWithPath: dir.path + "/cut.plist"))
        try FileManager.default.removeItem(atPath: dir.path + "/src")
        let (r, findings, errors) = try report(["scan", dir.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        let messages = errors.map { "\($0["path"] ?? "") \($0["message"] ?? "")" }
        XCTAssertTrue(messages.contains { $0.hasPrefix("bad.dex malformed dex (string_ids of 4294967295 entries") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("cut.plist malformed bplist (") && $0.hasSuffix("scanned as raw bytes") }, "\(messages)")
        let raw = try XCTUnwrap(findings.first { location($0)["path"] as? String == "cut.plist" }, r.stdout)
        XCTAssertEqual(location(raw)["format"] as? String, "raw")
    }
}
