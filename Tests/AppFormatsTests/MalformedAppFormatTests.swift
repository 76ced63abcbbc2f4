import AppFormats
import XCTest

/// Hostile inputs, built here at run time: truncated files, offsets out of range, reference
/// cycles, nesting past the depth limit and huge counts. None may trap or hang; each is an
/// error (the structure is unusable) or a document with warnings that lists only strings
/// inside the file.
final class MalformedAppFormatTests: XCTestCase {
    func parse(_ bytes: [UInt8]) throws -> AppDocument? { try bytes.withUnsafeBytes { try AppFormatParser.parse($0) } }
    func parse(_ bytes: [UInt8], as format: AppFormat) throws -> AppDocument { try bytes.withUnsafeBytes { try AppFormatParser.parse($0, as: format) } }

    /// A binary plist of `objects` (each its marker and contents), 1-byte offsets unless the
    /// file needs more, `refSize`-byte references.
    func bplist(_ objects: [[UInt8]], top: Int = 0, refSize: Int = 1, objectCount: UInt64? = nil, tableOffset: UInt64? = nil) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(out.count); out += object }
        let offsetSize = out.count < 256 ? 1 : 4
        let table = out.count
        for o in offsets { out += be(UInt64(o), offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += be(objectCount ?? UInt64(objects.count), 8) + be(UInt64(top), 8) + be(tableOffset ?? UInt64(table), 8)
        return out
    }

    func be(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) } }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
    func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }

    func testEveryTruncationOfEveryFixtureIsHandled() throws {
        let fixtures = try AppFixtures()
        defer { fixtures.remove() }
        for name in ["Info.plist", "Localized.plist", "Data.plist", "classes.dex", "App.class", "AndroidManifest.xml", "resources.arsc"] {
            let whole = try fixtures.bytes(name)
            let format = try XCTUnwrap(whole.withUnsafeBytes { AppFormat.sniff($0) }, name)
            var failures = 0
            for n in 0..<whole.count {
                let cut = Array(whole[0..<n])
                do {
                    let doc = try parse(cut, as: format)
                    for s in doc.strings { XCTAssertLessThanOrEqual(s.end, n, "\(name) cut at \(n)") }
                    if doc.warnings.isEmpty, doc.strings.contains(where: { $0.end > n }) { failures += 1 }
                } catch is AppFormatError {
                    // The structure is gone: the file is an error entry.
                }
            }
            XCTAssertEqual(failures, 0, name)
            // Half a file says so: an error, or warnings.
            let half = Array(whole[0..<(whole.count / 2)])
            if let doc = try? parse(half, as: format) { XCTAssertFalse(doc.warnings.isEmpty, "\(name) cut in half parses without a warning") }
        }
    }

    func testReferenceCyclesAreVisitedOnce() throws {
        // Object 0: an array holding itself and object 1; object 1: a dict whose value is
        // object 0 again; object 2: the string.
        let doc = try XCTUnwrap(try parse(bplist([[0xa3, 0, 1, 2], [0xd1, 2, 0], ascii("cyclevalue")])))
        XCTAssertEqual(doc.warnings, [])
        XCTAssertEqual(doc.strings.count, 1)
        XCTAssertEqual(doc.strings.first?.length, 10)
        XCTAssertEqual(doc.place(of: doc.strings[0].offset), "1/cyclevalue", "first reached as the dict's key, depth first")
    }

    func testNestingPastTheDepthLimitStillListsTheString() throws {
        // 5000 arrays, each holding the next; the last holds the string. 2-byte references.
        let depth = 5000
        var objects: [[UInt8]] = []
        for i in 0..<depth { objects.append([0xa1] + be(UInt64(i + 1), 2)) }
        objects.append(ascii("deepvalue"))
        let doc = try XCTUnwrap(try parse(bplist(objects, refSize: 2)))
        XCTAssertEqual(doc.strings.count, 1)
        XCTAssertNil(doc.place(of: doc.strings[0].offset), "deeper than the walk goes: listed without a path")
    }

    func testPlistTrailerAndTableOutOfRange() {
        let good = bplist([ascii("value")])
        XCTAssertNoThrow(try parse(good))
        XCTAssertThrowsError(try parse(bplist([ascii("value")], objectCount: 1 << 62)))
        XCTAssertThrowsError(try parse(bplist([ascii("value")], objectCount: 0)))
        XCTAssertThrowsError(try parse(bplist([ascii("value")], tableOffset: 0xffff_ffff_ffff_ff00)))
        XCTAssertThrowsError(try parse(bplist([ascii("value")], top: 7)))
        XCTAssertThrowsError(try parse(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 10)))
    }

    func testPlistHugeCountsAndBadReferences() throws {
        // An array claiming 2^60 references (count in a following 8-byte integer).
        let huge = try XCTUnwrap(try parse(bplist([[0xaf, 0x13] + be(1 << 60, 8) + [1], ascii("value")])))
        XCTAssertFalse(huge.warnings.isEmpty)
        XCTAssertEqual(huge.strings.count, 1, "the string is still listed")
        // A string claiming more characters than the file holds.
        let long = try XCTUnwrap(try parse(bplist([[0x5f, 0x13] + be(UInt64(Int.max), 8) + Array("abc".utf8)])))
        XCTAssertFalse(long.warnings.isEmpty)
        XCTAssertEqual(long.strings.count, 0)
        // A UTF-16 string whose doubled length would overflow.
        let overflow = try XCTUnwrap(try parse(bplist([[0x6f, 0x13] + be(1 << 62, 8)])))
        XCTAssertFalse(overflow.warnings.isEmpty)
        // A reference to an object that does not exist.
        let dangling = try XCTUnwrap(try parse(bplist([[0xa2, 1, 9], ascii("value")])))
        XCTAssertFalse(dangling.warnings.isEmpty)
        XCTAssertEqual(dangling.strings.count, 1)
    }

    /// A DEX header with `count` string ids at `tableOffset`, then `strings` (each data
    /// offset given), for hand-made damage.
    func dex(count: UInt32, tableOffset: UInt32, dataOffsets: [UInt32], data: [UInt8] = []) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 0x70)
        header.replaceSubrange(0..<8, with: Array("dex\n035".utf8) + [0])
        let size = 0x70 + 4 * dataOffsets.count + data.count
        header.replaceSubrange(32..<44, with: le32(UInt32(size)) + le32(0x70) + le32(0x1234_5678))
        header.replaceSubrange(56..<64, with: le32(count) + le32(tableOffset))
        return header + dataOffsets.flatMap(le32) + data
    }

    func testDEXOffsetsAndCountsOutOfRange() throws {
        let data: [UInt8] = [5] + Array("hello".utf8) + [0]
        let good = dex(count: 1, tableOffset: 0x70, dataOffsets: [0x74], data: data)
        XCTAssertEqual(try parse(good)?.strings.count, 1)
        XCTAssertThrowsError(try parse(dex(count: 0xffff_ffff, tableOffset: 0x70, dataOffsets: [0x74], data: data)))
        XCTAssertThrowsError(try parse(dex(count: 1, tableOffset: 0xffff_ff00, dataOffsets: [0x74], data: data)))
        // One id outside the file: the others are still listed, the file warned about.
        let partial = try XCTUnwrap(try parse(dex(count: 2, tableOffset: 0x70, dataOffsets: [0x7c, 0xffff_fff0], data: data)))
        XCTAssertEqual(partial.strings.count, 1)
        XCTAssertEqual(partial.warnings, ["1 of 2 string_ids point outside the file"])
        // No terminating NUL, and a ULEB128 that never ends.
        let open = try XCTUnwrap(try parse(dex(count: 1, tableOffset: 0x70, dataOffsets: [0x74], data: [5] + Array("hello".utf8))))
        XCTAssertEqual(open.strings.count, 0)
        XCTAssertFalse(open.warnings.isEmpty)
        let endless = try XCTUnwrap(try parse(dex(count: 1, tableOffset: 0x70, dataOffsets: [0x74], data: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0])))
        XCTAssertFalse(endless.warnings.isEmpty)
        // The wrong byte order is refused, not misread.
        var swapped = good
        swapped.replaceSubrange(40..<44, with: [0x12, 0x34, 0x56, 0x78])
        XCTAssertThrowsError(try parse(swapped))
    }

    func testClassFileDamage() throws {
        func classFile(count: UInt16, pool: [UInt8]) -> [UInt8] { [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, UInt8(count >> 8), UInt8(count & 0xff)] + pool }
        let utf8: [UInt8] = [1, 0, 5] + Array("hello".utf8)
        XCTAssertEqual(try parse(classFile(count: 2, pool: utf8))?.strings.count, 1)
        // A pool count far past the entries there: truncated, the entries read are kept.
        let short = try XCTUnwrap(try parse(classFile(count: 0xffff, pool: utf8)))
        XCTAssertEqual(short.strings.count, 1)
        XCTAssertFalse(short.warnings.isEmpty)
        // A length past the end of the file.
        let long = try XCTUnwrap(try parse(classFile(count: 2, pool: [1, 0xff, 0xff] + Array("hello".utf8))))
        XCTAssertEqual(long.strings.count, 0)
        XCTAssertFalse(long.warnings.isEmpty)
        // An unknown tag stops the walk: what came before is kept.
        let unknown = try XCTUnwrap(try parse(classFile(count: 3, pool: utf8 + [0x63, 1, 2, 3])))
        XCTAssertEqual(unknown.strings.count, 1)
        XCTAssertTrue(unknown.warnings.first?.contains("unknown tag 99") ?? false)
    }

    func testStringPoolDamage() throws {
        // ResXMLTree with one string pool chunk of `count` strings.
        func xml(count: UInt32, stringsStart: UInt32, offsets: [UInt32], data: [UInt8]) -> [UInt8] {
            let poolBody = offsets.flatMap(le32) + data
            let pool: [UInt8] = [0x01, 0, 0x1c, 0] + le32(UInt32(28 + poolBody.count)) + le32(count) + le32(0) + le32(0) + le32(stringsStart) + le32(0) + poolBody
            return [0x03, 0, 0x08, 0] + le32(UInt32(8 + pool.count)) + pool
        }
        let data: [UInt8] = [5, 0] + Array("hello".utf8).flatMap { [$0, 0] } + [0, 0]
        let good = try XCTUnwrap(try parse(xml(count: 1, stringsStart: 32, offsets: [0], data: data)))
        XCTAssertEqual(good.strings.count, 1)
        XCTAssertEqual(good.warnings, [])
        XCTAssertFalse(try XCTUnwrap(try parse(xml(count: 0x4000_0000, stringsStart: 32, offsets: [0], data: data))).warnings.isEmpty)
        XCTAssertFalse(try XCTUnwrap(try parse(xml(count: 1, stringsStart: 0xffff_0000, offsets: [0], data: data))).warnings.isEmpty)
        let outside = try XCTUnwrap(try parse(xml(count: 1, stringsStart: 32, offsets: [0x7fff_0000], data: data)))
        XCTAssertEqual(outside.strings.count, 0)
        XCTAssertFalse(outside.warnings.isEmpty)
        // A length running past the chunk (0x7fff units).
        let long = try XCTUnwrap(try parse(xml(count: 1, stringsStart: 32, offsets: [0], data: [0xff, 0x7f, 0x41, 0])))
        XCTAssertEqual(long.strings.count, 0)
        // A top chunk larger than the file: truncated, said so.
        var cut = xml(count: 1, stringsStart: 32, offsets: [0], data: data)
        cut.replaceSubrange(4..<8, with: le32(0x10000))
        XCTAssertFalse(try XCTUnwrap(try parse(cut)).warnings.isEmpty)
    }
}
