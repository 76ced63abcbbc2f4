import Foundation
import XCTest
import TestSupport

/// Bytes of an archive that are no member's data are scanned as raw bytes, at the archive's
/// own path with a `raw` place: a second tar behind the first one's end blocks, data appended
/// after them, a pax record, a zip comment; a zip entry its directory leaves out is read as a
/// member (as a streaming reader extracts it). Each used to exit 0 with the key in the file.
/// A damaged archive whose readable members and raw bytes were all read is no error.
final class ArchiveOutsideMembersTests: XCTestCase {
    /// A Stripe-shaped key made at run time.
    let key: String = TestKeys.stripe()

    /// Scans `dir`, expects exit `status`, no error entries unless 2, the key nowhere in the
    /// output; returns the findings' locations.
    func scan(_ dir: TempDir, status: Int32 = 1, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = keyshape(["scan", dir.path, "--no-config", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, status, r.stdout + r.stderr, file: file, line: line)
        assertNoFragment(of: key, in: r.stdout, "stdout", file: file, line: line)
        assertNoFragment(of: key, in: r.stderr, "stderr", file: file, line: line)
        let object = try XCTUnwrap(r.report, r.stderr, file: file, line: line)
        if status != 2 { XCTAssertEqual((object["errors"] as? [Any])?.count, 0, r.stdout, file: file, line: line) }
        let text = keyshape(["scan", dir.path, "--no-config", "--no-progress"])
        assertNoFragment(of: key, in: text.stdout + text.stderr, "text report", file: file, line: line)
        return (object["findings"] as? [[String: Any]] ?? []).compactMap { $0["location"] as? [String: Any] }
    }

    /// The one finding a test plants outside the members: at `path`, no member, raw, and its
    /// offset where the key's bytes are in the file.
    func assertRawFinding(_ locations: [[String: Any]], path: String, in dir: TempDir, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(locations.count, 1, "\(locations)", file: file, line: line)
        let location = try XCTUnwrap(locations.first, file: file, line: line)
        XCTAssertEqual(location["path"] as? String, path, file: file, line: line)
        XCTAssertNil(location["archive"], "\(location)", file: file, line: line)
        XCTAssertEqual(location["format"] as? String, "raw", file: file, line: line)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/" + path))
        let offset = try XCTUnwrap(bytes.range(of: Data(key.utf8))?.lowerBound, file: file, line: line)
        XCTAssertEqual(location["fileOffset"] as? Int, offset, file: file, line: line)
    }

    /// A second tar behind the first one's end blocks (`cat a.tar b.tar`): its members are
    /// read as members, as `tar --ignore-zeros` extracts them, so one compressed inside it
    /// is opened too.
    func testSecondTarConcatenatedBehindTheFirst() throws {
        let dir = TempDir()
        dir.write("a/readme.txt", "nothing here\n")
        dir.write("b/app.env", "STRIPE_KEY=\(key)\n")
        sh(dir, "tar -czf b/inner.tgz b/app.env && tar -cf a.tar a && tar -cf b.tar b && cat a.tar b.tar > both.tar && rm -r a b a.tar b.tar")
        let locations = try scan(dir)
        let places = locations.map { ($0["archive"] as? [String] ?? []).joined(separator: "!") }.sorted()
        XCTAssertEqual(places, ["b/app.env", "b/inner.tgz!b/app.env"], "\(locations)")
        XCTAssertEqual(Set(locations.compactMap { $0["line"] as? Int }), [1])
    }

    func testDataAfterATarsEndBlocks() throws {
        let dir = TempDir()
        dir.write("a/readme.txt", "nothing here\n")
        sh(dir, "tar -cf pkg.tar a && rm -r a && printf 'STRIPE_KEY=\(key)\\n' >> pkg.tar")
        try assertRawFinding(try scan(dir), path: "pkg.tar", in: dir)
    }

    func testPaxHeaderRecord() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import io, sys, tarfile
            t = tarfile.open("pax.tar", "w", format=tarfile.PAX_FORMAT)
            info = tarfile.TarInfo("readme.txt"); data = b"nothing here\\n"; info.size = len(data)
            info.pax_headers = {"comment": "STRIPE_KEY=" + sys.argv[1]}
            t.addfile(info, io.BytesIO(data)); t.close()' '\(key)'
            """)
        try assertRawFinding(try scan(dir), path: "pax.tar", in: dir)
    }

    func testZipComment() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import sys, zipfile
            z = zipfile.ZipFile("c.zip", "w", zipfile.ZIP_DEFLATED)
            z.writestr("readme.txt", "nothing here\\n" * 20)
            z.comment = ("STRIPE_KEY=" + sys.argv[1]).encode(); z.close()' '\(key)'
            """)
        try assertRawFinding(try scan(dir), path: "c.zip", in: dir)
    }

    /// A deflated local entry that the central directory leaves out: no raw scan sees its
    /// text; it is read from its local header as a member, as `bsdtar` reading a pipe would.
    func testZipLocalEntryMissingFromTheDirectory() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import struct, sys, zlib
            def local(name, data, method):
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                body = data if method == 0 else c.compress(data) + c.flush()
                crc = zlib.crc32(data)
                return struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, method, 0, 0, crc, len(body), len(data), len(name), 0) + name + body, crc, len(body), len(data)
            orphan, _, _, _ = local(b"hidden/app.env", (("# settings\\n" * 30) + "STRIPE_KEY=" + sys.argv[1] + "\\n").encode(), 8)
            listed, crc, csize, usize = local(b"readme.txt", b"nothing here\\n", 0)
            offset = len(orphan)
            cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 0, 0, 0, crc, csize, usize, 10, 0, 0, 0, 0, 0, offset) + b"readme.txt"
            eocd = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), offset + len(listed), 0)
            open("orphan.zip", "wb").write(orphan + listed + cd + eocd)' '\(key)'
            """)
        let locations = try scan(dir)
        XCTAssertEqual(locations.count, 1, "\(locations)")
        XCTAssertEqual(locations.first?["path"] as? String, "orphan.zip")
        XCTAssertEqual(locations.first?["archive"] as? [String], ["hidden/app.env"])
        XCTAssertEqual(locations.first?["line"] as? Int, 31)
        XCTAssertEqual(locations.first?["column"] as? Int, 12)
    }

    /// A stored member's text lies in the archive's bytes as they are: it is found once, as
    /// the member, not again as raw bytes.
    func testStoredMemberIsFoundOnceAsTheMember() throws {
        let dir = TempDir()
        dir.write("w/app.env", "STRIPE_KEY=\(key)\n")
        sh(dir, "cd w && zip -q -0 ../stored.zip app.env && tar -cf ../plain.tar app.env && cd .. && rm -r w")
        let locations = try scan(dir)
        XCTAssertEqual(locations.count, 2, "\(locations)")
        for location in locations {
            XCTAssertEqual(location["archive"] as? [String], ["app.env"], "\(location)")
            XCTAssertEqual(location["line"] as? Int, 1)
        }
    }

    /// A truncated archive: its readable members and all of its raw bytes are read, and
    /// nothing a reader could still recover is left: findings, exit 1, no error entry (it
    /// was exit 2). A plain tar cut inside its second member, and a tar.gz cut short.
    func testTruncatedArchiveWhoseBytesWereAllReadIsNoError() throws {
        let dir = TempDir()
        dir.write("w/app.env", "STRIPE_KEY=\(key)\n")
        dir.write("w/big.txt", String(repeating: "filler line of text\n", count: 2000))
        sh(dir, """
            cd w && tar -cf ../full.tar app.env big.txt && cd .. && rm -r w
            head -c 8000 full.tar > cut.tar && gzip -9nc full.tar | head -c 600 > cut.tar.gz && rm full.tar
            """)
        let locations = try scan(dir)
        XCTAssertEqual(Set(locations.compactMap { $0["path"] as? String }), ["cut.tar", "cut.tar.gz"], "\(locations)")
        XCTAssertEqual(locations.filter { $0["path"] as? String == "cut.tar" }.count, 1, "once, as the member: \(locations)")
    }

    /// A zip whose central directory is damaged (its first entry's signature overwritten):
    /// libarchive's seekable reader gives up, but every entry is still there behind its local
    /// header, so it is read from there (exit 1 and the member's place; it was exit 2 with no
    /// finding).
    func testZipWithADamagedDirectoryIsReadByItsLocalHeaders() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import sys, zipfile
            with zipfile.ZipFile("d.zip", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("readme.txt", "nothing here\\n" * 20)
                z.writestr("conf/app.env", "# settings\\nSTRIPE_KEY=" + sys.argv[1] + "\\n")
            data = bytearray(open("d.zip", "rb").read()); at = data.index(b"PK\\x01\\x02"); data[at:at + 4] = b"XXXX"
            open("d.zip", "wb").write(data)' '\(key)'
            """)
        let locations = try scan(dir)
        XCTAssertEqual(locations.count, 1, "\(locations)")
        XCTAssertEqual(locations.first?["archive"] as? [String], ["conf/app.env"])
        XCTAssertEqual(locations.first?["line"] as? Int, 2)
    }

    /// A tar with a damaged stretch in the middle (a header and its member's 4 KiB, nine
    /// blocks: past the three retries libarchive's reader is given to resync): the members
    /// behind it are read from the next valid header on (a gzipped one too: its key is in no
    /// raw byte). It was an error, and the member behind it unread.
    func testMembersBehindADamagedTarHeaderAreRead() throws {
        let dir = TempDir()
        dir.write("w/readme.txt", "nothing here\n")
        dir.write("w/junk.txt", String(repeating: "junk line\n", count: 409) + "junk\n")
        dir.write("w/conf/app.env", "STRIPE_KEY=\(key)\n")
        sh(dir, """
            cd w && gzip -9n conf/app.env && tar -cf ../t.tar readme.txt junk.txt conf/app.env.gz && cd .. && rm -r w
            python3 -c 'data = bytearray(open("t.tar", "rb").read()); at = data.index(b"junk.txt"); data[at:at + 512 + 4096] = b"\\xff" * (512 + 4096)
            open("t.tar", "wb").write(data)'
            """)
        let locations = try scan(dir)
        XCTAssertEqual(locations.map { $0["archive"] as? [String] ?? [] }, [["conf/app.env.gz", "data"]], "\(locations)")
    }

    /// 300,000 empty local entries that no directory lists, in front of a real zip: read as
    /// members until the member limit (an error, exit 2), in bounded time (it took 18.7 s of
    /// a release build when the search reread its window after each one; 2 s of a debug one
    /// now). Hang guard only, not a speed claim.
    func testManyEntriesOutsideTheDirectoryStopAtTheMemberLimit() throws {
        let dir = TempDir()
        sh(dir, """
            python3 -c 'import struct, zipfile
            z = zipfile.ZipFile("a.zip", "w"); z.writestr("readme.txt", "nothing here\\n"); z.close()
            entry = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0) + b"e"
            open("many.zip", "wb").write(entry * 300000 + open("a.zip", "rb").read())' && rm a.zip
            """)
        let started = Date()
        let r = keyshape(["scan", dir.path, "--no-config", "--format", "json", "--no-progress"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stdout.contains("more members than the limit"), r.stdout)
    }

    /// `history` and `staged` open an archive blob through the same scan: the key in a zip
    /// comment is found there too, at the same place.
    func testHistoryFindsTheZipCommentAtTheSamePlace() throws {
        let dir = TempDir()
        sh(dir, """
            git init -q . && git config user.email t@example.invalid && git config user.name t
            python3 -c 'import sys, zipfile
            z = zipfile.ZipFile("c.zip", "w", zipfile.ZIP_DEFLATED)
            z.writestr("readme.txt", "nothing here\\n" * 20)
            z.comment = ("STRIPE_KEY=" + sys.argv[1]).encode(); z.close()' '\(key)'
            git add c.zip && git commit -q -m release
            """)
        let r = keyshape(["history", dir.path, "--no-config", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        assertNoFragment(of: key, in: r.stdout + r.stderr, "history output")
        let object = try XCTUnwrap(r.report)
        let location = try XCTUnwrap((object["findings"] as? [[String: Any]])?.first?["location"] as? [String: Any], r.stdout)
        XCTAssertEqual(location["path"] as? String, "c.zip")
        XCTAssertNil(location["archive"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/c.zip"))
        XCTAssertEqual(location["fileOffset"] as? Int, bytes.range(of: Data(key.utf8))?.lowerBound)
    }
}
