import AppFormats
import XCTest

/// Each parser lists the planted string at its exact byte range, with its place name.
final class AppFormatParserTests: XCTestCase {
    var fixtures: AppFixtures!

    override func setUpWithError() throws { fixtures = try AppFixtures() }
    override func tearDown() { fixtures.remove() }

    func parse(_ bytes: [UInt8]) throws -> AppDocument? {
        try bytes.withUnsafeBytes { try AppFormatParser.parse($0) }
    }

    /// The string that starts at `offset`, with the document.
    func string(in name: String, at needle: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> (AppDocument, AppString, Int) {
        let bytes = try fixtures.bytes(name)
        let offset = try XCTUnwrap(bytes.offset(of: needle), "\(name) holds the planted value", file: file, line: line)
        let doc = try XCTUnwrap(try parse(bytes), "\(name) is recognised", file: file, line: line)
        XCTAssertEqual(doc.warnings, [], name, file: file, line: line)
        let index = try XCTUnwrap(doc.string(containing: offset), "\(name): a string holds the value", file: file, line: line)
        return (doc, doc.strings[index], offset)
    }

    func testInfoPlistValueIsPlacedAtItsKeyPath() throws {
        let (doc, s, offset) = try string(in: "Info.plist", at: Array(fixtures.value.utf8))
        XCTAssertEqual(doc.format, .binaryPlist)
        XCTAssertEqual(s.offset, offset)
        XCTAssertEqual(s.length, fixtures.value.utf8.count)
        XCTAssertEqual(s.encoding, .utf8)
        XCTAssertEqual(doc.place(of: offset), "CFBundleURLTypes/0/StripeKey")
        // The other values are strings of their own, at their own paths; "demo" (marker 0x54:
        // four characters) is one object, shared by the name and the scheme list (plistlib
        // uniques strings), placed where the walk, in key order, first reaches it.
        let demo = try XCTUnwrap(try fixtures.bytes("Info.plist").offset(of: [0x54] + Array("demo".utf8)))
        XCTAssertEqual(doc.place(of: demo + 1), "CFBundleURLTypes/0/CFBundleURLName")
    }

    func testUTF16StringIsPlacedWithItsUTF16KeyName() throws {
        var utf16BE: [UInt8] = []
        for unit in fixtures.value.utf16 { utf16BE += [UInt8(unit >> 8), UInt8(unit & 0xff)] }
        let (doc, s, offset) = try string(in: "Localized.plist", at: utf16BE)
        XCTAssertEqual(s.encoding, .utf16BE)
        // "é " comes first: two code units before the value.
        XCTAssertEqual(s.offset, offset - 4)
        XCTAssertEqual(s.length, 2 * (fixtures.value.utf16.count + 2))
        XCTAssertEqual(doc.place(of: offset), "Schl\u{fc}ssel")
    }

    func testDataObjectIsListedAsData() throws {
        let (doc, s, offset) = try string(in: "Data.plist", at: Array(fixtures.value.utf8))
        XCTAssertEqual(s.encoding, .data)
        XCTAssertEqual(s.offset, offset - "token=".count)
        XCTAssertEqual(doc.place(of: offset), "Blobs/1")
        XCTAssertEqual(doc.strings.filter { $0.encoding == .data }.count, 2)
    }

    func testDEXStringData() throws {
        let (doc, s, offset) = try string(in: "classes.dex", at: Array(fixtures.value.utf8))
        XCTAssertEqual(doc.format, .dex)
        XCTAssertEqual(s.offset, offset)
        XCTAssertEqual(s.length, fixtures.value.utf8.count)
        XCTAssertEqual(doc.place(of: offset), "string_data")
        XCTAssertEqual(doc.strings.count, 4)
    }

    func testJavaClassConstantPool() throws {
        let (doc, s, offset) = try string(in: "App.class", at: Array(fixtures.value.utf8))
        XCTAssertEqual(doc.format, .javaClass)
        XCTAssertEqual(s.offset, offset)
        XCTAssertEqual(s.length, fixtures.value.utf8.count)
        XCTAssertEqual(doc.place(of: offset), "constant_pool")
        // App, java/lang/Object and the value: the Long's two slots are stepped over.
        XCTAssertEqual(doc.strings.count, 3)
    }

    func testAndroidManifestUTF16Pool() throws {
        var utf16LE: [UInt8] = []
        for unit in fixtures.value.utf16 { utf16LE += [UInt8(unit & 0xff), UInt8(unit >> 8)] }
        let (doc, s, offset) = try string(in: "AndroidManifest.xml", at: utf16LE)
        XCTAssertEqual(doc.format, .androidXML)
        XCTAssertEqual(s.offset, offset)
        XCTAssertEqual(s.length, utf16LE.count)
        XCTAssertEqual(s.encoding, .utf16LE)
        XCTAssertEqual(doc.place(of: offset), "string_pool")
        XCTAssertEqual(doc.strings.count, 4)
    }

    func testResourceTablePoolsAreNamed() throws {
        let bytes = try fixtures.bytes("resources.arsc")
        let (doc, s, offset) = try string(in: "resources.arsc", at: Array(fixtures.value.utf8))
        XCTAssertEqual(doc.format, .resourceTable)
        XCTAssertEqual(s.offset, offset)
        XCTAssertEqual(s.encoding, .utf8)
        XCTAssertEqual(doc.place(of: offset), "string_pool")
        var typeName: [UInt8] = []
        for unit in "string".utf16 { typeName += [UInt8(unit), 0] }
        XCTAssertEqual(doc.place(of: try XCTUnwrap(bytes.offset(of: typeName))), "type_strings")
        XCTAssertEqual(doc.place(of: try XCTUnwrap(bytes.offset(of: Array("api_key".utf8)))), "key_strings")
    }

    func testSniffTellsFormatsApartByContent() throws {
        func sniff(_ bytes: [UInt8]) -> AppFormat? { bytes.withUnsafeBytes { AppFormat.sniff($0) } }
        XCTAssertEqual(sniff(try fixtures.bytes("Info.plist")), .binaryPlist)
        XCTAssertEqual(sniff(try fixtures.bytes("classes.dex")), .dex)
        XCTAssertEqual(sniff(try fixtures.bytes("App.class")), .javaClass)
        XCTAssertEqual(sniff(try fixtures.bytes("AndroidManifest.xml")), .androidXML)
        XCTAssertEqual(sniff(try fixtures.bytes("resources.arsc")), .resourceTable)
        // A fat Mach-O shares CAFEBABE; its next word is a small slice count.
        XCTAssertNil(sniff([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 40)))
        XCTAssertNil(sniff(Array("plain text, no magic at all".utf8)))
        // A chunk header alone (no string pool after it) is not taken for Android's.
        XCTAssertNil(sniff([0x03, 0, 0x08, 0, 0x40, 0, 0, 0] + [UInt8](repeating: 0x41, count: 40)))
        XCTAssertNil(try parse(Array("no format".utf8)))
    }
}
