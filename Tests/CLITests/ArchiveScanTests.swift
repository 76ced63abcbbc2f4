import Foundation
import XCTest
import TestSupport

/// `keyshape scan` opens archives found by content (zip and its kin, tar with each
/// compressor, ar) and reports a key inside at its member path, with the member's own line
/// and column or binary place; hostile archives are error entries and exit 2.
final class ArchiveScanTests: XCTestCase {
    /// A Stripe-shaped key made at run time (mixed case and digits in every 8 bytes).
    let key: String = TestKeys.stripe()

    func json(_ r: Run, file: StaticString = #filePath, line: UInt = #line) throws -> (findings: [[String: Any]], errors: [[String: Any]]) {
        let object = try XCTUnwrap(r.report, r.stderr, file: file, line: line)
        return (object["findings"] as? [[String: Any]] ?? [], object["errors"] as? [[String: Any]] ?? [])
    }

    func assertNoKey(_ r: Run, file: StaticString = #filePath, line: UInt = #line) {
        assertNoFragment(of: key, in: r.stdout, "stdout", file: file, line: line)
        assertNoFragment(of: key, in: r.stderr, "stderr", file: file, line: line)
    }

    /// The contract's example: a Mach-O inside an .ipa layout, deflated and stored.
    func testMachOInsideAnIpaIsFoundAtItsMemberPathAndSection() throws {
        for method in ["-9", "-0"] {
            let dir = TempDir()
            sh(dir, "mkdir -p build/Payload/App.app dist && cp '\(Repo.path("Fixtures/binaries/macho/keys-arm64-ios.o"))' build/Payload/App.app/App && printf '<plist/>' > build/Payload/App.app/Info.plist && cd build && zip -q \(method) -r ../dist/App.ipa Payload && cd .. && rm -r build")
            let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress"])
            XCTAssertEqual(r.status, 1, r.stderr)
            let (findings, errors) = try json(r)
            XCTAssertEqual(errors.count, 0, r.stdout)
            let location = try XCTUnwrap(findings.first { $0["rule"] as? String == "stripe-live-secret-key" }?["location"] as? [String: Any], r.stdout)
            XCTAssertEqual(location["path"] as? String, "dist/App.ipa", method)
            XCTAssertEqual(location["archive"] as? [String], ["Payload/App.app/App"], method)
            XCTAssertEqual(location["format"] as? String, "mach-o")
            XCTAssertEqual(location["arch"] as? String, "arm64")
            XCTAssertEqual(location["section"] as? String, "__TEXT,__cstring")
            XCTAssertEqual(location["fileOffset"] as? Int, 788, "the offset within the member, as for the file itself")
            let text = keyshape(["scan", dir.path, "--no-progress"])
            XCTAssertTrue(text.stdout.contains("dist/App.ipa!Payload/App.app/App:arm64:__TEXT,__cstring+0x314: stripe-live-secret-key"), text.stdout)
        }
    }

    func testTextMemberOfATarGz() throws {
        let dir = TempDir()
        dir.write("src/pkg/config/app.env", "# settings\nDEBUG=0\nSTRIPE_KEY=\(key)\n")
        sh(dir, "cd src && tar -czf ../pkg.tgz pkg && cd .. && rm -r src")
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoKey(r)
        let location = try XCTUnwrap(try json(r).findings.first?["location"] as? [String: Any], r.stdout)
        XCTAssertEqual(location["path"] as? String, "pkg.tgz")
        XCTAssertEqual(location["archive"] as? [String], ["pkg/config/app.env"])
        XCTAssertEqual(location["line"] as? Int, 3)
        XCTAssertEqual(location["column"] as? Int, 12)
        let text = keyshape(["scan", dir.path, "--no-progress"])
        XCTAssertTrue(text.stdout.hasPrefix("pkg.tgz!pkg/config/app.env:3:12: "), text.stdout)
    }

    /// A .deb is ar holding tars: the key is two levels in.
    func testDebianPackage() throws {
        let dir = TempDir()
        dir.write("root/DEBIAN/control", "Package: demo\nVersion: 1.0\nArchitecture: all\nMaintainer: nobody <nobody@example.invalid>\nDescription: demo\n")
        dir.write("root/usr/share/demo/settings.conf", "key = \(key)\n")
        sh(dir, "dpkg-deb --build -Zgzip --root-owner-group root demo.deb >/dev/null && rm -r root")
        let r = keyshape(["scan", dir.path, "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoKey(r)
        XCTAssertTrue(r.stdout.hasPrefix("demo.deb!data.tar.gz!./usr/share/demo/settings.conf:1:7: stripe-live-secret-key"), r.stdout)
    }

    func testNestedThreeDeep() throws {
        let dir = TempDir()
        dir.write("w/application.properties", "name=demo\nmode=live\napi.key=\(key)\n")
        sh(dir, "cd w && zip -q -9 inner.jar application.properties && zip -q -0 middle.war inner.jar && zip -q -9 ../libs.zip middle.war && cd .. && rm -r w")
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let location = try XCTUnwrap(try json(r).findings.first?["location"] as? [String: Any], r.stdout)
        XCTAssertEqual(location["archive"] as? [String], ["middle.war", "inner.jar", "application.properties"])
        XCTAssertEqual(location["line"] as? Int, 3)
        XCTAssertEqual(location["column"] as? Int, 9)
        let text = keyshape(["scan", dir.path, "--no-progress"])
        XCTAssertTrue(text.stdout.hasPrefix("libs.zip!middle.war!inner.jar!application.properties:3:9: "), text.stdout)
        // Two levels allowed: the jar is not opened, and that is an error, not a silence.
        let shallow = keyshape(["scan", dir.path, "--max-archive-depth", "2", "--format", "json", "--no-progress"])
        XCTAssertEqual(shallow.status, 2, shallow.stderr)
        let (findings, errors) = try json(shallow)
        XCTAssertEqual(findings.count, 0, shallow.stdout)
        XCTAssertEqual(errors.first?["path"] as? String, "libs.zip!middle.war!inner.jar", shallow.stdout)
    }

    /// A zip appended to a binary stub (a self-extracting installer): the members are read
    /// through the end record, and the stub in front is still scanned as the file's bytes.
    /// (A member zip stores rather than deflates is seen in the raw bytes too: a second finding.)
    func testSelfExtractorStubAndMembers() throws {
        let dir = TempDir()
        let stubKey = "sk_live_" + String(key.dropFirst(8).reversed())
        dir.write("w/config.txt", "k=\(key)\n")
        sh(dir, "cd w && zip -q -9 ../payload.zip config.txt && cd .. && printf 'MZ\\000\\000stub key=\(stubKey)\\000\\000' > installer.exe && cat payload.zip >> installer.exe && rm -r w payload.zip")
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoKey(r)
        assertNoFragment(of: stubKey, in: r.stdout, "stdout")
        let locations = try json(r).findings.compactMap { $0["location"] as? [String: Any] }
        XCTAssertTrue(locations.contains { $0["archive"] as? [String] == ["config.txt"] && $0["line"] as? Int == 1 && $0["column"] as? Int == 3 }, r.stdout)
        XCTAssertTrue(locations.contains { $0["archive"] == nil && $0["fileOffset"] as? Int == 13 }, r.stdout)
    }

    /// Depth 0: archives are bytes again (a stored member's key is found in the zip's raw
    /// bytes, as before archives were opened).
    func testDepthZeroScansTheRawBytes() throws {
        let dir = TempDir()
        dir.write("w/key.txt", "k=\(key)\n")
        sh(dir, "cd w && zip -q -0 ../stored.zip key.txt && cd .. && rm -r w")
        let r = keyshape(["scan", dir.path, "--max-archive-depth", "0", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let location = try XCTUnwrap(try json(r).findings.first?["location"] as? [String: Any], r.stdout)
        XCTAssertEqual(location["path"] as? String, "stored.zip")
        XCTAssertNil(location["archive"])
    }

    /// Every hostile case is an error entry naming the archive and member, the readable
    /// member's key is still reported, and the run exits 2. A truncated tar is no longer one
    /// of them: its readable member and all of its raw bytes were read, and nothing is left
    /// that a reader could recover (the contract's third-release exit status).
    func testHostileArchivesAreErrorsAndExitTwo() throws {
        let dir = TempDir()
        dir.write("w/plain.txt", "k=\(key)\n")
        dir.write("w/locked.txt", "nothing to see\n")
        sh(dir, """
            cd w
            zip -q -P not-a-real-password ../encrypted.zip locked.txt && zip -q ../encrypted.zip plain.txt
            head -c 67108864 /dev/zero > zeros.bin && zip -q -9 ../bomb.zip zeros.bin && rm zeros.bin
            printf 'x%.0s' $(seq 1 3000) > a.txt && tar -cf full.tar a.txt && head -c 2000 full.tar > ../cut.tar
            cd .. && rm -r w
            """)
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 2, r.stderr)
        assertNoKey(r)
        let (findings, errors) = try json(r)
        XCTAssertEqual((findings.first?["location"] as? [String: Any])?["archive"] as? [String], ["plain.txt"], r.stdout)
        let byPath = Dictionary(errors.map { ($0["path"] as? String ?? "", $0["message"] as? String ?? "") }, uniquingKeysWith: { $0 + "; " + $1 })
        XCTAssertTrue(byPath["encrypted.zip!locked.txt"]?.contains("encrypted") == true, r.stdout)
        XCTAssertTrue(byPath["bomb.zip!zeros.bin"]?.contains("ratio") == true, r.stdout)
        XCTAssertNil(byPath["cut.tar!a.txt"], r.stdout)
        XCTAssertFalse(r.stdout.contains("not-a-real-password"))
    }

    func testMaxArchiveSize() throws {
        let dir = TempDir()
        sh(dir, "head -c 3000000 /dev/urandom > noise.bin && zip -q -0 big.zip noise.bin && rm noise.bin")
        let r = keyshape(["scan", dir.path, "--max-archive-size", "1M", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 2, r.stderr)
        let errors = try json(r).errors
        XCTAssertEqual(errors.first?["path"] as? String, "big.zip!noise.bin", r.stdout)
        XCTAssertTrue((errors.first?["message"] as? String ?? "").contains("size limit"), r.stdout)
        XCTAssertEqual(keyshape(["scan", dir.path, "--max-archive-size", "lots", "--no-progress"]).status, 2)
    }

    /// Member names are data: a control character in one is escaped where it is printed.
    func testControlCharacterMemberNameIsEscaped() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import zipfile
            with zipfile.ZipFile("names.zip", "w") as z: z.writestr("evil\\x1b[2Jname\\n.txt", "k=\(key)\\n")'
            """)
        let r = keyshape(["scan", dir.path, "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertFalse(r.stdout.contains("\u{1b}"), r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix("names.zip!evil\\x1b[2Jname\\n.txt:1:3: "), r.stdout)
    }

    /// `history` opens an archive committed to git like `scan` opens the file.
    func testArchiveCommittedToGitIsOpenedInHistory() throws {
        let repo = GitFixture()
        let work = TempDir()
        work.write("w/config/app.env", "mode=live\nSTRIPE_KEY=\(key)\n")
        sh(work, "cd w && zip -q -9 -r '\(repo.path)/release.zip' config")
        repo.git(["add", "release.zip"])
        repo.git(["commit", "-q", "-m", "release"])
        // The same place and fingerprint as `scan` of the file gives.
        let scan = keyshape(["scan", repo.path, "--format", "json", "--no-progress"])
        let history = try gitRun("history", repo, status: 1, samePlacesAs: scan)
        let location = try XCTUnwrap(history.findings.first?["location"] as? [String: Any], history.run.stdout)
        XCTAssertEqual(location["kind"] as? String, "commit")
        XCTAssertEqual(location["path"] as? String, "release.zip")
        XCTAssertEqual(location["archive"] as? [String], ["config/app.env"])
        XCTAssertEqual(location["line"] as? Int, 2)
        XCTAssertEqual(location["column"] as? Int, 12)
        let scanned = try json(scan).findings.first
        XCTAssertEqual(scanned?["fingerprint"] as? String, history.findings.first?["fingerprint"] as? String, scan.stdout)
    }

    // MARK: fixtures from real tools

    /// `Fixtures/archives/make-archives.sh` builds zip (stored and deflated), a jar layout, tar
    /// with each compressor, ar in a .deb's layout, a clang Mach-O object in an .ipa, and
    /// archives nested three deep, and writes where each planted key is (found by searching
    /// the member's bytes, not by keyshape). Every one is reported at exactly that place and
    /// nothing else is.
    func testFixturesFromRealTools() throws {
        let dir = TempDir()
        let made = runProcess("/bin/bash", [Repo.path("Fixtures/archives/make-archives.sh"), dir.path + "/out", key])
        XCTAssertEqual(made.status, 0, made.stderr)
        let expected = try String(contentsOfFile: dir.path + "/out/expected.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init).sorted()
        XCTAssertEqual(expected.count, 12, expected.joined(separator: "\n"))
        let r = keyshape(["scan", dir.path + "/out", "--no-config", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoKey(r)
        // `LOCATION: RULE (description) [fingerprint]` -> `LOCATION RULE`.
        let found = r.stdout.split(separator: "\n").map { line -> String in
            let text = String(line)
            guard let cut = text.range(of: ": stripe-live-secret-key ") else { return text }
            return String(text[..<cut.lowerBound]) + " stripe-live-secret-key"
        }.sorted()
        XCTAssertEqual(found, expected, r.stdout)
        // The nested Mach-O's chain and place in JSON.
        let json = keyshape(["scan", dir.path + "/out/release.zip", "--no-config", "--format", "json", "--no-progress"])
        let location = try XCTUnwrap(try self.json(json).findings.first?["location"] as? [String: Any], json.stdout)
        XCTAssertEqual(location["archive"] as? [String], ["bundle.tar.gz", "dist/App.ipa", "Payload/App.app/App"])
        XCTAssertEqual(location["format"] as? String, "mach-o")
        XCTAssertEqual(location["section"] as? String, "__TEXT,__cstring")
    }

    // MARK: staged and streamed blobs

    /// A staged .zip and .jar are opened as `scan` opens them: the key at `file.zip!member`
    /// with its line and column in the member; once committed, a change to the archive that
    /// keeps the key adds nothing.
    func testStagedArchivesAreOpened() throws {
        let repo = GitFixture()
        repo.write("README.md", "demo\n")
        repo.commit("base")
        let work = TempDir()
        work.write("w/config/app.env", "mode=live\nSTRIPE_KEY=\(key)\n" + String(repeating: "# padding so zip deflates it\n", count: 20))
        work.write("w/application.properties", "app.name=demo\nstripe.secret=\(key)\n")
        sh(work, "cd w && zip -q -9 '\(repo.path)/release.zip' config/app.env && zip -q -9 '\(repo.path)/app.jar' application.properties")
        repo.git(["add", "release.zip", "app.jar"])
        let staged = try gitRun("staged", repo, status: 1)
        let places = staged.findings.compactMap { $0["location"] as? [String: Any] }.map {
            "\($0["kind"] as? String ?? "") \($0["path"] as? String ?? "")!\(($0["archive"] as? [String] ?? []).joined(separator: "!")):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0)"
        }.sorted()
        XCTAssertEqual(places, ["staged app.jar!application.properties:2:15", "staged release.zip!config/app.env:2:12"], staged.run.stdout)
        let text = keyshape(["staged", repo.path, "--no-progress"])
        XCTAssertTrue(text.stdout.contains("release.zip!config/app.env:2:12: stripe-live-secret-key"), text.stdout)
        // Committed, then changed without a new key: nothing new is staged.
        repo.commit("release")
        work.write("w/notes.txt", "nothing secret\n")
        sh(work, "cd w && zip -q -9 '\(repo.path)/release.zip' notes.txt")
        repo.git(["add", "release.zip"])
        try gitRun("staged", repo, status: 0)
    }

    /// A self-extractor over the 8 MiB chunk size (a 9 MiB stub, then a zip) is streamed from
    /// git, in `history` and `staged`: as `scan` does for the file, its deflated member's key is
    /// found at `installer.exe!config.txt` and the stub's own key in its bytes. A binary blob
    /// of that size holding a zip local header but no end record is only bytes: no member, no
    /// error. The previous build scanned both raw, and missed the member.
    func testSelfExtractorOverTheChunkSizeIsOpenedInHistoryAndStaged() throws {
        let repo = GitFixture()
        let work = TempDir()
        let stubKey = "sk_live_" + String(key.dropFirst(8).reversed())
        work.write("w/config.txt", "k=\(key)\n" + String(repeating: "# padding so zip deflates it\n", count: 20))
        sh(work, """
            cd w && zip -q -9 payload.zip config.txt
            head -c 9437184 /dev/urandom > stub.bin && printf '\\000stub key=\(stubKey)\\000' >> stub.bin
            cat stub.bin payload.zip > '\(repo.path)/installer.exe'
            head -c 9437184 /dev/urandom > '\(repo.path)/noise.bin' && head -c 200 payload.zip >> '\(repo.path)/noise.bin'
            head -c 4096 /dev/urandom >> '\(repo.path)/noise.bin'
            """)
        let scan = keyshape(["scan", repo.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(archivePlaces(try json(scan).findings), ["installer.exe!:0:0:\(9437184 + 1 + 9)", "installer.exe!config.txt:1:3:-1"], scan.stdout)
        repo.git(["add", "-A"])
        try stagedThenHistory(repo, status: 1, secrets: [stubKey], samePlacesAs: scan)
    }

    /// A zip over the 8 MiB chunk size is streamed from git, in `history` and `staged`: it is
    /// opened all the same (streamed through libarchive, never held whole), its deflated
    /// member's key found at `release.zip!config/app.env`, and an error inside it is an
    /// error entry naming the member.
    func testStreamedBlobArchivesAreOpened() throws {
        let repo = GitFixture()
        let work = TempDir()
        work.write("w/config/app.env", "mode=live\nSTRIPE_KEY=\(key)\n" + String(repeating: "# padding so zip deflates it\n", count: 20))
        work.write("w/locked.txt", "nothing to see\n")
        sh(work, """
            cd w && head -c 9437184 /dev/urandom > assets.bin
            zip -q -0 '\(repo.path)/release.zip' assets.bin && zip -q -9 '\(repo.path)/release.zip' config/app.env
            zip -q -P not-a-real-password '\(repo.path)/release.zip' locked.txt
            """)
        let scan = keyshape(["scan", repo.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(scan.status, 2, scan.stderr)
        repo.git(["add", "release.zip"])
        try stagedThenHistory(repo, status: 2, samePlacesAs: scan) { run in
            let (command, r, findings, errors) = (run.command, run.run, run.findings, run.errors)
            let location = try XCTUnwrap(findings.first?["location"] as? [String: Any], "\(command): \(r.stdout)")
            XCTAssertEqual(findings.count, 1, r.stdout)
            XCTAssertEqual(location["path"] as? String, "release.zip", command)
            XCTAssertEqual(location["archive"] as? [String], ["config/app.env"], command)
            XCTAssertEqual(location["line"] as? Int, 2, command)
            XCTAssertEqual(location["column"] as? Int, 12, command)
            let messages = errors.map { "\($0["path"] as? String ?? "") \($0["message"] as? String ?? "")" }
            XCTAssertTrue(messages.contains { $0.contains("locked.txt") && $0.contains("encrypted") }, "\(command): \(messages)")
            XCTAssertFalse(r.stdout.contains("not-a-real-password"))
        }
    }
}
