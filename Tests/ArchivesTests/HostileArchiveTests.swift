import Foundation
import XCTest
import Archives
import ScanCore
import TestSupport

/// Archives built to hurt the reader: each one ends in bounded time and memory with the
/// right problem, names the member it happened in, reads on where the format allows, and
/// writes nothing anywhere.
final class HostileArchiveTests: XCTestCase {
    // MARK: bombs

    /// One member of 10 GiB of zeros in a .tar.gz (a gzip of the tar header, then 160
    /// gzip members of 64 MiB of zeros each, which decode as one stream): stopped by the
    /// ratio limit within its first MiBs, read through a descriptor, resident memory flat.
    func testTenGibibyteZeroMemberInTarGz() throws {
        let scratch = try Scratch()
        let size: Int64 = 10 << 30
        try scratch.write("header.tar", TarHeader.file(name: "zeros.bin", size: size))
        try scratch.shell("gzip -9nc header.tar > header.gz; head -c 67108864 /dev/zero | gzip -9nc > zeros64m.gz")
        let header = try scratch.bytes("header.gz"), zeros = try scratch.bytes("zeros64m.gz")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("bomb.tar.gz")).creatingEmpty())
        handle.write(Data(header))
        for _ in 0..<Int(size >> 26) { handle.write(Data(zeros)) }
        try handle.close()
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: scratch.path("bomb.tar.gz"))[.size] as! Int, 16 << 20)

        let started = Date()
        let outcome = try ArchiveWalk.read(file: scratch.path("bomb.tar.gz"), chunk: 64 << 10, keep: 4096, sampleMemory: true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(outcome.problems.map(\.kind), [.ratioLimit, .remainderUnread])
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "zeros.bin")
        XCTAssertLessThan(outcome.budget.expandedBytes, 16 << 20, "stopped early, not at the size limit")
        XCTAssertLessThan(outcome.peakResidentGrowth, 64 << 20, "streamed, never held")
    }

    /// Real data is not a bomb: a gzip whose compressed bytes span two read windows and
    /// whose output is 71:1 overall (the shape of cloud SDKs' bundled `.json.gz` tables)
    /// is read to its end. Measuring only the bytes delivered after the member's header took
    /// the second window alone for its size (over 100:1) and stopped it.
    func testHighlyCompressibleTextIsNotARatioBomb() throws {
        let scratch = try Scratch()
        var text = ""
        var g = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        // 6.5 MB of JSON that gzip -9 makes 91 KB of: 71:1 overall, 255:1 if only the bytes
        // after the first 64 KiB window counted.
        for i in 0..<40_000 {
            text += "{\"name\": \"t\(i % 128).large\", \"memoryMiB\": \((i * 37) % 128 * 256), \"zone\": \"z\(g.below(2))\", "
                + "\"architectures\": [\"x86_64\", \"arm64\"], \"network\": \"Up to 10 Gigabit\", \"ebsOptimized\": true, \"gpu\": false},\n"
        }
        try scratch.write("types.json", Array(text.utf8))
        try scratch.shell("gzip -9nc types.json > types.json.gz")
        let gz = try scratch.bytes("types.json.gz")
        XCTAssertGreaterThan(gz.count, 64 << 10, "the compressed stream spans more than one window")
        XCTAssertLessThan(text.utf8.count / gz.count, 100, "the whole member is under the ratio limit")
        let outcome = ArchiveWalk.read(.bytes(gz), chunk: 64 << 10)
        XCTAssertEqual(outcome.problems.map(\.kind), [], "\(outcome.problems)")
        XCTAssertEqual(outcome.budget.expandedBytes, Int64(text.utf8.count))
    }

    /// A compressed stream of nothing (gzip, bzip2, xz, zstd of an empty file) is an archive
    /// with no members: libarchive's raw format bids only on a byte, so it was reported
    /// "not a readable archive" (exit 2 on a real pyarrow wheel's empty `.jsn.gz`).
    func testCompressedEmptyStreamIsNotAnError() throws {
        let scratch = try Scratch()
        try scratch.write("empty", [UInt8]())
        try scratch.shell("gzip -9nc empty > empty.gz; bzip2 -c empty > empty.bz2; xz -c empty > empty.xz; zstd -q -c empty > empty.zst")
        for name in ["empty.gz", "empty.bz2", "empty.xz", "empty.zst"] {
            let outcome = ArchiveWalk.read(.bytes(try scratch.bytes(name)))
            XCTAssertEqual(outcome.problems.map(\.kind), [], "\(name): \(outcome.problems)")
            XCTAssertEqual(outcome.budget.expandedBytes, 0, name)
        }
    }

    /// The same in a zip: one zip64 member whose deflate stream expands to 10 GiB (160
    /// segments each encoding 64 MiB of zeros on its own, ended by a final empty block).
    func testTenGibibyteZeroMemberInZip() throws {
        let scratch = try Scratch()
        try scratch.shell("""
            python3 -c 'import sys, zlib
            o = zlib.compressobj(9, zlib.DEFLATED, -15)
            sys.stdout.buffer.write(o.compress(bytes(1 << 26)) + o.flush(zlib.Z_FULL_FLUSH))' > segment.bin
            """)
        let segment = try scratch.bytes("segment.bin")
        let size: Int64 = 10 << 30
        let count = Int(size >> 26)
        let compressedSize = Int64(segment.count * count + 2)
        let name = Array("zeros.bin".utf8)
        let crc = CRC32.ofZeros(size)
        var local: [UInt8] = []
        local.le32(0x0403_4b50); local.le16(45); local.le16(0); local.le16(8); local.le16(0); local.le16(0x21)
        local.le32(crc); local.le32(0xffff_ffff); local.le32(0xffff_ffff); local.le16(name.count); local.le16(20)
        local += name
        local.le16(1); local.le16(16); local.le64(size); local.le64(compressedSize)
        var central: [UInt8] = []
        central.le32(0x0201_4b50); central.le16(45); central.le16(45); central.le16(0); central.le16(8); central.le16(0); central.le16(0x21)
        central.le32(crc); central.le32(0xffff_ffff); central.le32(0xffff_ffff); central.le16(name.count); central.le16(20)
        central.le16(0); central.le16(0); central.le16(0); central.le32(0); central.le32(0)
        central += name
        central.le16(1); central.le16(16); central.le64(size); central.le64(compressedSize)
        let centralOffset = Int64(local.count) + compressedSize
        var end: [UInt8] = []
        end.le32(0x0605_4b50); end.le16(0); end.le16(0); end.le16(1); end.le16(1)
        end.le32(UInt32(central.count)); end.le32(UInt32(centralOffset)); end.le16(0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("bomb.zip")).creatingEmpty())
        handle.write(Data(local))
        for _ in 0..<count { handle.write(Data(segment)) }
        handle.write(Data([0x03, 0x00]))
        handle.write(Data(central + end))
        try handle.close()

        let started = Date()
        let outcome = try ArchiveWalk.read(file: scratch.path("bomb.zip"), chunk: 64 << 10, keep: 4096, sampleMemory: true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(outcome.problems.map(\.kind), [.ratioLimit], "a seekable zip goes on after the member (nothing follows here)")
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "zeros.bin")
        XCTAssertLessThan(outcome.budget.expandedBytes, 16 << 20)
        XCTAssertLessThan(outcome.peakResidentGrowth, 64 << 20)
    }

    /// 42.zip-style: 16 zips of 16 zips of 16 zips of a 16 MiB zero file (64 GiB in all, four
    /// levels, within the depth limit): every leaf stops at the ratio limit, and after 100
    /// problems the whole tree stops.
    func testNestedBomb() throws {
        let scratch = try Scratch()
        let copies = (0..<16).map { String($0, radix: 16) }
        try scratch.shell("head -c 16777216 /dev/zero > 0.bin && zip -q -9 level0.zip 0.bin")
        for level in 1...3 {
            let names = copies.map { "\($0).zip" }
            try scratch.shell(names.map { "cp level\(level - 1).zip \($0)" }.joined(separator: " && ")
                              + " && zip -q -9 level\(level).zip " + names.joined(separator: " ") + " && rm " + names.joined(separator: " "))
        }
        let top = try scratch.bytes("level3.zip")
        XCTAssertLessThan(top.count, 1 << 20)

        let started = Date()
        let outcome = ArchiveWalk.read(.bytes(top), keep: 4096, sampleMemory: true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(outcome.problems(.ratioLimit).count, 100, "\(outcome.problems.prefix(3))")
        XCTAssertEqual(outcome.problems(.problemLimit).count, 1)
        XCTAssertEqual(outcome.problems(.ratioLimit).first.map(outcome.chain), "0.zip!0.zip!0.zip!0.bin")
        XCTAssertTrue(outcome.budget.isExhausted)
        // 100 leaves, each stopped once past the 8 MiB ratio floor: under the 1 GiB budget.
        XCTAssertLessThan(outcome.budget.expandedBytes, 1 << 30)
        XCTAssertLessThan(outcome.peakResidentGrowth, 64 << 20)
    }

    /// With the ratio limit out of the way, the shared size limit stops a nested bomb at
    /// exactly its figure, counted over every level.
    func testSizeLimitCoversEveryLevel() throws {
        let scratch = try Scratch()
        try scratch.shell("head -c 8388608 /dev/zero > 0.bin && zip -q -9 inner.zip 0.bin && cp inner.zip a.zip && cp inner.zip b.zip && zip -q -0 outer.zip a.zip b.zip")
        let limits = ArchiveLimits(maxExpandedBytes: 12 << 20, maxCompressionRatio: 1_000_000)
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("outer.zip")), limits: limits)
        XCTAssertEqual(outcome.problems.map(\.kind), [.sizeLimit])
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "b.zip!0.bin")
        XCTAssertEqual(outcome.budget.expandedBytes, 12 << 20)
        XCTAssertEqual(outcome.members["a.zip!0.bin"]?.count, 1 << 20, "the first copy read whole (kept: 1 MiB)")
    }

    /// Six zips, each inside the next: the fifth level is not opened and says so, with the
    /// chain of members that leads to it.
    func testDepthLimit() throws {
        let scratch = try Scratch()
        try scratch.write("deep.txt", "deepest\n")
        try scratch.shell("zip -q z1.zip deep.txt" + (2...6).map { " && zip -q z\($0).zip z\($0 - 1).zip" }.joined())
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("z6.zip")))
        XCTAssertEqual(outcome.problems.map(\.kind), [.depthLimit])
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "z5.zip!z4.zip!z3.zip!z2.zip")
        XCTAssertEqual(outcome.members, [:])
        let shallow = ArchiveWalk.read(.bytes(try scratch.bytes("z4.zip")))
        XCTAssertEqual(shallow.problems, [])
        XCTAssertEqual(shallow.members, ["z3.zip!z2.zip!z1.zip!deep.txt": Array("deepest\n".utf8)])
    }

    /// Overlapping entries (the construction of David Fifield's non-recursive bomb, stored
    /// form): 400 local headers in a row, then one 256 KiB body; each entry's data runs over
    /// every header after it and the body, so 270 KiB of file would expand to 100 MiB (ratio
    /// 1:1 per member, so no ratio limit would stop it). The central directory shows every
    /// entry after the first starting inside the first one's data: each is an `overlapping`
    /// problem and is not read, and past 100 problems the archive stops.
    func testOverlappingEntries() throws {
        let body = Array(String(repeating: "overlapping entry body 0123456789\n", count: 7_711).utf8.prefix(256 << 10))
        let count = 400
        let names = (0..<count).map { Array(String(format: "copy-%03d.txt", $0).utf8) }
        let headerLength = { (i: Int) in 30 + names[i].count }
        var sizes = [Int](repeating: 0, count: count)
        var following = body.count
        for i in stride(from: count - 1, through: 0, by: -1) {
            sizes[i] = following
            following += headerLength(i)
        }
        // Each CRC covers the headers after it, CRCs included: computed back to front, each
        // from the next one with CRC32.combine (a pass per entry would cost seconds here).
        func header(_ i: Int, crc: UInt32) -> [UInt8] {
            var header: [UInt8] = []
            header.le32(0x0403_4b50); header.le16(20); header.le16(0); header.le16(0); header.le16(0); header.le16(0x21)
            header.le32(crc); header.le32(UInt32(sizes[i])); header.le32(UInt32(sizes[i])); header.le16(names[i].count); header.le16(0)
            return header + names[i]
        }
        var crcs = [UInt32](repeating: 0, count: count)
        crcs[count - 1] = CRC32.of(body)
        for i in stride(from: count - 2, through: 0, by: -1) {
            crcs[i] = CRC32.combine(CRC32.of(header(i + 1, crc: crcs[i + 1])), crcs[i + 1], lengthB: Int64(sizes[i + 1]))
        }
        var zip: [UInt8] = []
        for i in 0..<count { zip += header(i, crc: crcs[i]) }
        zip += body
        var offset = 0
        let centralOffset = zip.count
        for i in 0..<count {
            zip.le32(0x0201_4b50); zip.le16(20); zip.le16(20); zip.le16(0); zip.le16(0); zip.le16(0); zip.le16(0x21)
            zip.le32(crcs[i]); zip.le32(UInt32(sizes[i])); zip.le32(UInt32(sizes[i])); zip.le16(names[i].count); zip.le16(0)
            zip.le16(0); zip.le16(0); zip.le16(0); zip.le32(0); zip.le32(UInt32(offset))
            zip += names[i]
            offset += headerLength(i)
        }
        let centralSize = zip.count - centralOffset
        zip.le32(0x0605_4b50); zip.le16(0); zip.le16(0); zip.le16(count); zip.le16(count)
        zip.le32(UInt32(centralSize)); zip.le32(UInt32(centralOffset)); zip.le16(0)
        XCTAssertLessThan(zip.count, 300 << 10)

        let limits = ArchiveLimits(maxExpandedBytes: 32 << 20)
        let started = Date()
        // Each entry's data starts with the next local header, so a walker opening nested
        // archives would open every one; this test is about the outer directory.
        let outcome = ArchiveWalk.read(.bytes(zip), limits: limits, keep: 1 << 20, openNested: false)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(outcome.problems.count, 101, "\(outcome.problems.prefix(3))")
        XCTAssertEqual(outcome.problems(.overlapping).count, 100)
        XCTAssertEqual(outcome.problems.last?.kind, .problemLimit)
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "copy-001.txt")
        XCTAssertLessThan(outcome.budget.expandedBytes, 1 << 20, "nothing read past the directory")
        // With room for every problem, the first entry (which overlaps nothing before it) is
        // read and the 399 inside it are reported, not read: 270 KiB, never 100 MiB.
        let roomy = ArchiveWalk.read(.bytes(zip), limits: ArchiveLimits(maxExpandedBytes: 32 << 20, maxProblems: 1000), openNested: false)
        XCTAssertEqual(roomy.problems(.overlapping).count, 399)
        XCTAssertEqual(roomy.order, ["copy-000.txt"])
        XCTAssertLessThan(roomy.budget.expandedBytes, 300 << 10)
    }

    /// Two central-directory entries pointing at one local header: libarchive would hand out
    /// only one of them (the other silently never read); the second is an `overlapping`
    /// problem naming it, the first is read, from memory and from a file alike.
    func testTwoDirectoryEntriesAtOneLocalHeader() throws {
        let body = Array("shared body\n".utf8)
        let crc = CRC32.of(body)
        let names = [Array("first/app.env".utf8), Array("again/app.env".utf8)]
        var zip: [UInt8] = []
        zip.le32(0x0403_4b50); zip.le16(20); zip.le16(0); zip.le16(0); zip.le16(0); zip.le16(0x21)
        zip.le32(crc); zip.le32(UInt32(body.count)); zip.le32(UInt32(body.count)); zip.le16(names[0].count); zip.le16(0)
        zip += names[0] + body
        let centralOffset = zip.count
        for name in names {
            zip.le32(0x0201_4b50); zip.le16(20); zip.le16(20); zip.le16(0); zip.le16(0); zip.le16(0); zip.le16(0x21)
            zip.le32(crc); zip.le32(UInt32(body.count)); zip.le32(UInt32(body.count)); zip.le16(name.count); zip.le16(0)
            zip.le16(0); zip.le16(0); zip.le16(0); zip.le32(0); zip.le32(0)
            zip += name
        }
        let centralSize = zip.count - centralOffset
        zip.le32(0x0605_4b50); zip.le16(0); zip.le16(0); zip.le16(2); zip.le16(2)
        zip.le32(UInt32(centralSize)); zip.le32(UInt32(centralOffset)); zip.le16(0)
        let scratch = try Scratch()
        try scratch.write("overlap.zip", zip)
        for outcome in [ArchiveWalk.read(.bytes(zip)), try ArchiveWalk.read(file: scratch.path("overlap.zip"))] {
            XCTAssertEqual(outcome.problems.map(\.kind), [.overlapping])
            XCTAssertEqual(outcome.problems.first.map(outcome.chain), "again/app.env")
            XCTAssertEqual(outcome.members, ["first/app.env": body])
        }
    }

    /// A zip64 directory entry claiming a compressed size near Int64.max (and one at
    /// Int64.max's offset): read without a trap, the entries after it reported as inside it.
    func testDirectoryWithHugeZip64SizesDoesNotTrap() {
        let body = Array("x\n".utf8)
        var zip: [UInt8] = []
        zip.le32(0x0403_4b50); zip.le16(45); zip.le16(0); zip.le16(0); zip.le16(0); zip.le16(0x21)
        zip.le32(CRC32.of(body)); zip.le32(UInt32(body.count)); zip.le32(UInt32(body.count)); zip.le16(5); zip.le16(0)
        zip += Array("a.txt".utf8) + body
        let centralOffset = zip.count
        for (name, offset) in [("a.txt", Int64(0)), ("b.txt", Int64.max - 10)] {
            zip.le32(0x0201_4b50); zip.le16(45); zip.le16(45); zip.le16(0); zip.le16(0); zip.le16(0); zip.le16(0x21)
            zip.le32(0); zip.le32(0xffff_ffff); zip.le32(0xffff_ffff); zip.le16(5); zip.le16(28)
            zip.le16(0); zip.le16(0); zip.le16(0); zip.le32(0); zip.le32(0xffff_ffff)
            zip += Array(name.utf8)
            zip.le16(1); zip.le16(24); zip.le64(2); zip.le64(Int64.max - 5); zip.le64(offset)
        }
        let centralSize = zip.count - centralOffset
        zip.le32(0x0605_4b50); zip.le16(0); zip.le16(0); zip.le16(2); zip.le16(2)
        zip.le32(UInt32(centralSize)); zip.le32(UInt32(centralOffset)); zip.le16(0)
        let outcome = ArchiveWalk.read(.bytes(zip))
        XCTAssertEqual(outcome.problems(.overlapping).first.map(outcome.chain), "b.txt", "\(outcome.problems)")
    }

    // MARK: names

    /// `../`, absolute and control-character names are data: read, reported escaped, and
    /// nothing is created anywhere (no extraction, names are never paths).
    func testHostileMemberNames() throws {
        let scratch = try Scratch()
        try scratch.shell("""
            mkdir work && cd work && python3 -c '
            import tarfile, zipfile, io
            names = ["../../escape-\(ProcessInfo.processInfo.processIdentifier).txt", "/tmp/absolute-\(ProcessInfo.processInfo.processIdentifier).txt", "bad\\x1b[31mname\\nforged.txt"]
            with zipfile.ZipFile("../names.zip", "w") as z:
                for n in names: z.writestr(n, "body of " + n)
            with tarfile.open("../names.tar", "w") as t:
                for n in names:
                    data = ("body of " + n).encode()
                    info = tarfile.TarInfo(n); info.size = len(data); t.addfile(info, io.BytesIO(data))
            '
            """)
        let before = scratch.listing()
        let pid = ProcessInfo.processInfo.processIdentifier
        for archive in ["names.zip", "names.tar"] {
            let outcome = ArchiveWalk.read(.bytes(try scratch.bytes(archive)))
            XCTAssertEqual(outcome.problems, [], archive)
            let escape = "../../escape-\(pid).txt"
            XCTAssertEqual(outcome.members[escape], Array("body of \(escape)".utf8), "\(archive): \(outcome.order)")
            XCTAssertTrue(outcome.order.contains { $0.hasSuffix("absolute-\(pid).txt") }, archive)
            XCTAssertEqual(outcome.members["bad\u{1b}[31mname\nforged.txt"], Array("body of bad\u{1b}[31mname\nforged.txt".utf8), archive)
        }
        var display: [String] = []
        ArchiveReader(source: .bytes(try scratch.bytes("names.zip")), budget: ArchiveBudget()).forEachMember { display.append($0.displayName) }
        XCTAssertTrue(display.contains("bad\\x1b[31mname\\nforged.txt"), "\(display)")
        XCTAssertTrue(display.allSatisfy { DisplayText.isPlain($0) || !$0.unicodeScalars.contains { $0.value < 0x20 } })
        XCTAssertEqual(scratch.listing(), before)
        for path in ["\(scratch.url.deletingLastPathComponent().deletingLastPathComponent().path)/escape-\(pid).txt",
                     "\(scratch.url.deletingLastPathComponent().path)/escape-\(pid).txt", "/tmp/absolute-\(pid).txt"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
    }

    // MARK: damage

    /// A deflate stream with garbage in the middle: an error for that member, and the stored
    /// member after it is still read (the zip is reopened past the damage).
    func testCorruptDeflateStream() throws {
        let scratch = try Scratch()
        try scratch.write("a.txt", ArchiveFormatTests.longText)
        try scratch.write("b.txt", "after the damage\n")
        try scratch.shell("zip -q -9 damaged.zip a.txt && zip -q -0 damaged.zip b.txt")
        var zip = try scratch.bytes("damaged.zip")
        let dataStart = 30 + Int(zip[26]) + Int(zip[27]) << 8 + Int(zip[28]) + Int(zip[29]) << 8
        let compressed = Int(zip[18]) | Int(zip[19]) << 8 | Int(zip[20]) << 16 | Int(zip[21]) << 24
        XCTAssertGreaterThan(compressed, 200)
        for offset in (dataStart + compressed / 3)..<(dataStart + compressed / 3 + 64) { zip[offset] = 0xff }
        let outcome = ArchiveWalk.read(.bytes(zip))
        XCTAssertEqual(outcome.problems.map(\.kind), [.corrupt], "\(outcome.problems)")
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "a.txt")
        XCTAssertEqual(outcome.members["b.txt"], Array("after the damage\n".utf8))
    }

    /// A tar cut inside its second member: the first is read whole, the second is reported
    /// truncated; the same for the tar.gz of it.
    func testTruncatedTar() throws {
        let scratch = try Scratch()
        try scratch.write("pkg/a.txt", "first\n")
        try scratch.write("pkg/b.txt", ArchiveFormatTests.longText)
        try scratch.run("tar", ["-cf", "full.tar", "pkg/a.txt", "pkg/b.txt"])
        let full = try scratch.bytes("full.tar")
        let cut = Array(full.prefix(512 * 3 + 5_000))
        let outcome = ArchiveWalk.read(.bytes(cut))
        XCTAssertEqual(outcome.members["pkg/a.txt"], Array("first\n".utf8))
        XCTAssertEqual(outcome.problems.map(\.kind), [.truncated], "\(outcome.problems)")
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "pkg/b.txt")

        try scratch.write("cut.tar", cut)
        try scratch.shell("gzip -9nc cut.tar > cut.tgz")
        let gz = ArchiveWalk.read(.bytes(try scratch.bytes("cut.tgz")))
        XCTAssertEqual(gz.members["pkg/a.txt"], Array("first\n".utf8))
        XCTAssertEqual(gz.problems.first?.kind, .truncated, "\(gz.problems)")
        XCTAssertEqual(gz.problems.first.map(gz.chain), "pkg/b.txt")

        let gzipped = try scratch.bytes("cut.tgz")
        let cutStream = ArchiveWalk.read(.bytes(Array(gzipped.prefix(gzipped.count / 2))))
        XCTAssertFalse(cutStream.problems.isEmpty, "a gzip stream cut in half is an error, not an ending")
    }

    /// A zip cut in half has no central directory: what can be read is, and the cut is an error.
    func testTruncatedZip() throws {
        let scratch = try Scratch()
        try scratch.write("a.txt", "first\n")
        try scratch.write("b.txt", ArchiveFormatTests.longText)
        try scratch.shell("zip -q -0 full.zip a.txt b.txt")
        let full = try scratch.bytes("full.zip")
        let outcome = ArchiveWalk.read(.bytes(Array(full.prefix(full.count / 2))))
        XCTAssertEqual(outcome.members["a.txt"], Array("first\n".utf8))
        XCTAssertEqual(outcome.problems.map(\.kind), [.truncated], "\(outcome.problems)")
    }

    /// An encrypted member is an error naming it; the plain member beside it is read.
    func testEncryptedMember() throws {
        let scratch = try Scratch()
        try scratch.write("locked.txt", "cannot be read without the password\n")
        try scratch.write("plain.txt", "readable\n")
        try scratch.shell("zip -q -P not-a-real-password mixed.zip locked.txt && zip -q mixed.zip plain.txt")
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("mixed.zip")))
        XCTAssertEqual(outcome.problems.map(\.kind), [.encrypted])
        XCTAssertEqual(outcome.problems.first.map(outcome.chain), "locked.txt")
        XCTAssertEqual(outcome.members, ["plain.txt": Array("readable\n".utf8)])
        XCTAssertFalse(outcome.problems.description.contains("not-a-real-password"))
    }

    func testMemberLimit() throws {
        let scratch = try Scratch()
        for index in 0..<30 { try scratch.write("many/\(index).txt", "\(index)\n") }
        try scratch.run("tar", ["-cf", "many.tar", "many"])
        let outcome = ArchiveWalk.read(.bytes(try scratch.bytes("many.tar")), limits: ArchiveLimits(maxMembers: 10))
        XCTAssertEqual(outcome.problems.map(\.kind), [.memberLimit])
        XCTAssertEqual(outcome.budget.members, 10)
        XCTAssertLessThanOrEqual(outcome.members.count, 10)
    }

    /// Problems print escaped names and fixed messages.
    func testProblemDescriptionEscapesNames() {
        let problem = ArchiveProblem(.corrupt, member: Array("x\u{1b}]0;title\u{7}.txt".utf8), detail: nil).nested(in: Array("outer\n.zip".utf8))
        XCTAssertEqual(problem.description, "outer\\n.zip!x\\x1b]0;title\\x07.txt: corrupt archive data")
    }
}

enum TarHeader {
    /// A ustar header for one regular file; a size past 8 GiB is written in GNU base-256.
    static func file(name: String, size: Int64) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (i, byte) in text.utf8.enumerated() { header[offset + i] = byte } }
        put(name, at: 0)
        put("0000644", at: 100); put("0000000", at: 108); put("0000000", at: 116)
        header[124] = 0x80
        for i in 0..<8 { header[135 - i] = UInt8((UInt64(size) >> (8 * UInt64(i))) & 0xff) }
        put("00000000000", at: 136)
        header[156] = UInt8(ascii: "0")
        put("ustar  ", at: 257)
        for i in 148..<156 { header[i] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        put(String(format: "%06o", sum), at: 148)
        header[154] = 0
        return header
    }
}

extension CRC32 {
    /// The CRC of `count` zero bytes, by doubling with `combine`.
    static func ofZeros(_ count: Int64) -> UInt32 {
        var result: UInt32 = 0, resultLength: Int64 = 0
        var power = of([0]), powerLength: Int64 = 1
        var remaining = count
        while remaining > 0 {
            if remaining & 1 != 0 {
                result = combine(result, power, lengthB: powerLength)
                resultLength += powerLength
            }
            power = combine(power, power, lengthB: powerLength)
            powerLength *= 2
            remaining >>= 1
        }
        return result
    }
}

final class CRC32Tests: XCTestCase {
    func testCombineAgreesWithDirectComputation() {
        for count in [1, 2, 3, 7, 64, 1000, 4097] {
            XCTAssertEqual(CRC32.ofZeros(Int64(count)), CRC32.of([UInt8](repeating: 0, count: count)), "\(count)")
        }
        let a = Array("hello ".utf8), b = Array("world".utf8)
        XCTAssertEqual(CRC32.combine(CRC32.of(a), CRC32.of(b), lengthB: Int64(b.count)), CRC32.of(a + b))
        XCTAssertEqual(CRC32.of(Array("123456789".utf8)), 0xcbf4_3926)
    }
}

extension URL {
    /// Creates (or empties) the file and returns its URL, for FileHandle(forWritingTo:).
    func creatingEmpty() -> URL {
        FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}
