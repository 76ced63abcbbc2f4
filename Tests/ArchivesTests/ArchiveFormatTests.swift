import Foundation
import XCTest
import Archives

/// Real archives made by the real tools, read member by member: the right names and bytes,
/// stored and compressed members alike, whatever the file is called.
final class ArchiveFormatTests: XCTestCase {
    /// Text that deflates well, so `zip -9` really compresses it (the stored one is `zip -0`).
    static let longText = String(repeating: "let marker = \"archive-member-marker\" // padding line\n", count: 2_000)

    func testZipStoredAndDeflatedMembers() throws {
        let scratch = try Scratch()
        try scratch.write("in/dir/stored.txt", "stored member\n")
        try scratch.write("in/dir/deflated.txt", Self.longText)
        try scratch.shell("cd in && zip -q -0 ../app.zip dir/stored.txt && zip -q -9 ../app.zip dir/deflated.txt")
        let zip = try scratch.bytes("app.zip")
        XCTAssertLessThan(zip.count, Self.longText.utf8.count / 4, "the deflated member is compressed")
        XCTAssertEqual(ArchiveKind.sniff(zip), .zip)

        let outcome = ArchiveWalk.read(.bytes(zip))
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.order, ["dir/stored.txt", "dir/deflated.txt"])
        XCTAssertEqual(outcome.members["dir/stored.txt"], Array("stored member\n".utf8))
        XCTAssertEqual(outcome.members["dir/deflated.txt"], Array(Self.longText.utf8))
        XCTAssertLessThanOrEqual(outcome.largestChunk, 4096)
        // The same from a buffer the caller owns.
        let fromBuffer = zip.withUnsafeBytes { ArchiveWalk.read(.buffer($0)) }
        XCTAssertEqual(fromBuffer.members, outcome.members)
        XCTAssertEqual(fromBuffer.problems, [])
    }

    func testTarPlainAndWithEachCompressor() throws {
        let scratch = try Scratch()
        try scratch.write("pkg/package.json", "{\"name\": \"demo\"}\n")
        try scratch.write("pkg/lib/index.js", Self.longText)
        try scratch.run("tar", ["-cf", "plain.tar", "pkg"])
        let cases: [(String, String, ArchiveKind)] = [
            ("plain.tar", "", .tar), ("plain.tar.gz", "gzip -9nc", .gzip), ("plain.tar.bz2", "bzip2 -9c", .bzip2),
            ("plain.tar.xz", "xz -6c", .xz), ("plain.tar.zst", "zstd -q -19 -c", .zstd),
        ]
        for (name, compressor, kind) in cases {
            if !compressor.isEmpty { try scratch.shell("\(compressor) < plain.tar > \(name)") }
            let bytes = try scratch.bytes(name)
            XCTAssertEqual(ArchiveKind.sniff(bytes), kind, name)
            let outcome = ArchiveWalk.read(.bytes(bytes))
            XCTAssertEqual(outcome.problems, [], name)
            XCTAssertEqual(outcome.order, ["pkg/package.json", "pkg/lib/index.js"], name)
            XCTAssertEqual(outcome.members["pkg/lib/index.js"], Array(Self.longText.utf8), name)
            // The same through a descriptor (pread and seek on a regular file).
            let fromFile = try ArchiveWalk.read(file: scratch.path(name))
            XCTAssertEqual(fromFile.members, outcome.members, name)
            XCTAssertEqual(fromFile.problems, [], name)
        }
    }

    /// A compressed stream that is not a tar (a .gz log) is one member.
    func testCompressedStreamOfPlainTextIsOneMember() throws {
        let scratch = try Scratch()
        try scratch.write("app.log", Self.longText)
        try scratch.shell("gzip -9n app.log")
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("app.log.gz")))
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.members.count, 1)
        XCTAssertEqual(outcome.members.values.first, Array(Self.longText.utf8))
    }

    /// A .deb: ar holding debian-binary, control.tar.* and data.tar.*; the data tar is read as
    /// a nested archive.
    func testDebianPackageThroughArAndItsDataTar() throws {
        let scratch = try Scratch()
        try scratch.write("root/DEBIAN/control", """
            Package: demo
            Version: 1.0
            Architecture: all
            Maintainer: nobody <nobody@example.invalid>
            Description: demo package

            """)
        try scratch.write("root/usr/share/demo/settings.conf", "token = archive-member-marker\n")
        try scratch.run("dpkg-deb", ["--build", "-Zxz", "--root-owner-group", "root", "demo.deb"])
        let deb = try scratch.bytes("demo.deb")
        XCTAssertEqual(ArchiveKind.sniff(deb), .ar)
        let outcome = ArchiveWalk.read(.bytes(deb))
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.members["debian-binary"], Array("2.0\n".utf8))
        XCTAssertEqual(outcome.members["data.tar.xz!./usr/share/demo/settings.conf"], Array("token = archive-member-marker\n".utf8),
                       "\(outcome.order)")
        XCTAssertNotNil(outcome.members.keys.first { $0.hasPrefix("control.tar.xz!") && $0.hasSuffix("control") }, "\(outcome.order)")
    }

    func testPlainArStaticLibrary() throws {
        let scratch = try Scratch()
        try scratch.write("one.o", "first member\n")
        try scratch.write("two.o", "second member\n")
        try scratch.run("ar", ["rc", "libdemo.a", "one.o", "two.o"])
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("libdemo.a")))
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.members, ["one.o": Array("first member\n".utf8), "two.o": Array("second member\n".utf8)])
    }

    /// zip in zip in zip (a jar inside a war inside a zip), stored and deflated levels.
    func testNestedThreeDeep() throws {
        let scratch = try Scratch()
        try scratch.write("application.properties", "api.token=archive-member-marker\n")
        try scratch.shell("""
            zip -q -9 inner.jar application.properties
            zip -q -0 middle.war inner.jar
            zip -q -9 outer.zip middle.war
            """)
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("outer.zip")))
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.order, ["middle.war!inner.jar!application.properties"])
        XCTAssertEqual(outcome.members["middle.war!inner.jar!application.properties"], Array("api.token=archive-member-marker\n".utf8))
        XCTAssertEqual(outcome.budget.members, 3)
    }

    /// A zip appended to a shell script (a self-extracting installer), with the offsets left
    /// as zip wrote them and with them adjusted (`zip -A`): found by its end record.
    func testZipAppendedToAShellScript() throws {
        let scratch = try Scratch()
        try scratch.write("payload/config.json", "{\"key\": \"archive-member-marker\"}\n")
        try scratch.write("stub.sh", "#!/bin/sh\necho installing\nexit 0\n" + String(repeating: "# padding\n", count: 300))
        try scratch.shell("cd payload && zip -q -9 ../payload.zip config.json && cd .. && cat stub.sh payload.zip > installer.sh && cp installer.sh adjusted.sh && zip -q -A adjusted.sh")
        for name in ["installer.sh", "adjusted.sh"] {
            let bytes = try scratch.bytes(name)
            XCTAssertEqual(ArchiveKind.sniff(bytes), .zip, name)
            let outcome = ArchiveWalk.read(.bytes(bytes))
            XCTAssertEqual(outcome.problems, [], name)
            XCTAssertEqual(outcome.members, ["config.json": Array("{\"key\": \"archive-member-marker\"}\n".utf8)], name)
            XCTAssertEqual(try ArchiveWalk.read(file: scratch.path(name)).members, outcome.members, name)
        }
    }

    /// Content decides, never the name: a text file called .zip is not an archive, an ipa
    /// called .bin is.
    func testRecognisedByContentNotName() throws {
        let scratch = try Scratch()
        try scratch.write("notes.zip", "just text, not a zip\n")
        try scratch.write("Payload/App.app/Info.plist", "<plist/>\n")
        try scratch.shell("zip -q -r App.bin Payload")
        XCTAssertNil(ArchiveKind.sniff(try scratch.bytes("notes.zip")))
        XCTAssertEqual(ArchiveKind.sniff(try scratch.bytes("App.bin")), .zip)
        let fd = open(scratch.path("App.bin"), O_RDONLY)
        defer { close(fd) }
        XCTAssertEqual(ArchiveKind.sniff(fileDescriptor: fd), .zip)
        XCTAssertEqual(ArchiveWalk.read(.bytes(try scratch.bytes("App.bin"))).order, ["Payload/App.app/Info.plist"])
    }

    /// A pipe cannot seek: the tar.gz is read once, front to back.
    func testUnseekableDescriptor() throws {
        let scratch = try Scratch()
        try scratch.write("pkg/a.txt", Self.longText)
        try scratch.shell("tar -czf pkg.tgz pkg")
        let bytes = try scratch.bytes("pkg.tgz")
        signal(SIGPIPE, SIG_IGN)  // a reader that stops early must fail the test, not kill it
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let writeEnd = fds[1]
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var at = 0
                while at < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + at, raw.count - at)
                    if n <= 0 { break }
                    at += n
                }
            }
            close(writeEnd)
        }
        writer.start()
        let outcome = ArchiveWalk.read(.fileDescriptor(fds[0]), limits: ArchiveLimits(), chunk: 1000)
        close(fds[0])
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.members["pkg/a.txt"], Array(Self.longText.utf8))
        XCTAssertLessThanOrEqual(outcome.largestChunk, 1000)
    }

    /// peek hands back the member's first bytes and the reads that follow return them again.
    func testPeekDoesNotConsume() throws {
        let scratch = try Scratch()
        try scratch.write("a.txt", Self.longText)
        try scratch.run("zip", ["-q", "-9", "a.zip", "a.txt"])
        var read: [UInt8] = []
        var peeked: [UInt8] = []
        let problems = ArchiveReader(source: .bytes(try scratch.bytes("a.zip")), budget: ArchiveBudget()).forEachMember { member in
            peeked = member.peek(100)
            XCTAssertEqual(member.peek(10), Array(peeked.prefix(10)))
            var buffer = [UInt8](repeating: 0, count: 333)
            while true {
                let got = buffer.withUnsafeMutableBytes { member.read(into: $0) }
                if got == 0 { break }
                read += buffer[0..<got]
            }
        }
        XCTAssertEqual(problems, [])
        XCTAssertEqual(peeked, Array(Self.longText.utf8.prefix(100)))
        XCTAssertEqual(read, Array(Self.longText.utf8))
    }
}
