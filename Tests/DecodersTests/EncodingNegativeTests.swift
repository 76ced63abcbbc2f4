import Decoders
import XCTest

/// What must not decode into text worth matching: placeholders, images, digests, ids, words
/// and identifiers, ordinary source.
final class EncodingNegativeTests: XCTestCase {
    func assertNothing(_ input: String, file: StaticString = #filePath, line: UInt = #line) {
        let texts = Decode.texts(input)
        XCTAssertEqual(texts.count, 0, "decoded \(texts.map(\.encodings)) at \(texts.map(\.sourceRange))", file: file, line: line)
    }

    func testBase64OfPlaceholders() {
        for placeholder in ["xxxxxxxxxxxxxxxxxxxxxxxx", "************************", "<YOUR_API_KEY_HERE>", "${API_TOKEN_FROM_ENV}",
                            "{{ secrets.DEPLOY_TOKEN }}", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
            let encoded = Decode.base64(placeholder)
            XCTAssertGreaterThanOrEqual(encoded.count, SpanFinder.minimumBase64Length)
            assertNothing("token: \(encoded)\n")
        }
        // Base64 of zeros ("AAAA..."), and a run of one letter, is no text either.
        assertNothing("key = \"\(Decode.base64([UInt8](repeating: 0, count: 48)))\"")
        assertNothing(String(repeating: "A", count: 200))
    }

    /// The start of a PNG (signature, IHDR, an IDAT of compressed-looking bytes).
    var png: [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0, 0xAA, 0x69, 0x71, 0xDE, 0, 0, 4, 0] + Array("IDAT".utf8)
            + Decode.noise(1024, seed: 1)
    }

    var jpeg: [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xDB, 0, 0x43, 0]
            + Decode.noise(900, seed: 2)
    }

    func testBase64Images() {
        for image in [png, jpeg] {
            let encoded = Decode.base64(image)
            assertNothing("<img src=\"data:image/png;base64,\(encoded)\">")
            assertNothing("background: url(data:image/jpeg;base64,\(encoded));")
            assertNothing("\"icon\": \"\(encoded)\"")
            // Wrapped at 76 columns as MIME does.
            var wrapped = "", rest = Substring(encoded)
            while !rest.isEmpty { wrapped += rest.prefix(76) + "\n"; rest = rest.dropFirst(76) }
            assertNothing(wrapped)
        }
    }

    func testSubresourceIntegrityHashes() {
        for (name, size) in [("sha256", 32), ("sha384", 48), ("sha512", 64)] {
            let digest = Decode.base64(Decode.noise(size, seed: UInt64(size)))
            assertNothing("<script src=\"https://cdn.example.invalid/lib.js\" integrity=\"\(name)-\(digest)\" crossorigin=\"anonymous\"></script>")
        }
    }

    func testGitShasUUIDsAndDigests() {
        let sha = Decode.noise(20, seed: 3).map { String(format: "%02x", $0) }.joined()
        assertNothing("commit \(sha)\nMerge: \(sha.prefix(7))\n")
        assertNothing("\"sha256\": \"\(Decode.noise(32, seed: 4).map { String(format: "%02x", $0) }.joined())\"")
        let u = Decode.noise(16, seed: 5).map { String(format: "%02x", $0) }.joined()
        let uuid = [u.prefix(8), u.dropFirst(8).prefix(4), u.dropFirst(12).prefix(4), u.dropFirst(16).prefix(4), u.dropFirst(20)].joined(separator: "-")
        assertNothing("id: \(uuid)\n")
        assertNothing("\"requestId\":\"\(uuid.uppercased())\"")
        assertNothing("integrity sha512-\(Decode.base64(Decode.noise(64, seed: 6)))")
    }

    func testLongWordsAndIdentifiers() {
        let words = ["internationalization", "antidisestablishmentarianism", "supercalifragilisticexpialidocious",
                     "withUnsafeMutableBufferPointer", "AbstractSingletonProxyFactoryBean", "__WEBPACK_IMPORTED_MODULE_0__",
                     "SHOULD_NEVER_HAPPEN_IN_PRODUCTION", "org/apache/commons/lang3/StringUtils", "ThisIsAVeryLongCamelCaseName",
                     "test_decoding_of_nested_values_is_bounded", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"]
        for word in words { assertNothing("let x = \(word)(y)\n") }
        assertNothing("!function(e,t){\"object\"==typeof exports&&\"undefined\"!=typeof module?module.exports=t():\"function\"==typeof define&&define.amd?define(t):(e=e||self).Vue=t()}(this,function(){\"use strict\";var e=Object.freeze({});function t(e){return null==e}")
    }

    func testOrdinarySource() {
        let source = """
        import Foundation

        /// Formats a progress line: "%d of %d files" with printf-style arguments.
        func progressLine(done: Int, total: Int) -> String {
            let percent = total == 0 ? 100 : done * 100 / total
            print("scanned \\(done) files\\n", terminator: "")
            return String(format: "%3d%% of %d", percent, total)
        }
        let path = "/usr/lib/python3/dist-packages/setuptools/command/build_ext.py"
        let url = "https://example.invalid/docs/getting-started?lang=en#install"
        """
        assertNothing(source)
    }

    func testEscapesThatDecodeToShortOrBinaryText() {
        assertNothing("printf(\"\\\"%s\\\"\\n\", name);")
        assertNothing("static const char magic[] = \"\\x89\\x50\\x4e\\x47\\x0d\\x0a\\x1a\\x0a\\x00\\x00\\x00\\x0d\";")
        assertNothing("char z[] = \"\\000\\001\\002\\003\\004\\005\\006\\007\\010\\011\\012\";")
    }
}
