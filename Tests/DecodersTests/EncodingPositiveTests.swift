import Decoders
import XCTest

/// Each encoding is found at the exact span of its encoded text and decodes to the value.
/// Values are built at run time, so no encoded literal sits in the source.
final class EncodingPositiveTests: XCTestCase {
    /// Key-shaped text no rule knows: only the decoders' behaviour is under test here.
    let value = "ks_" + "decoded_canary_" + "7Hq2Lx9Vb4Nw"

    func assertOne(_ input: String, encoded: String, as encodings: [Encoding], contains expected: String,
                   file: StaticString = #filePath, line: UInt = #line) {
        let texts = Decode.texts(input)
        guard let range = input.byteRange(of: encoded) else { return XCTFail("no encoded text in the input", file: file, line: line) }
        let hit = texts.filter { $0.encodings == encodings }
        XCTAssertEqual(hit.count, 1, "\(encodings) in \(texts.map(\.encodings))", file: file, line: line)
        XCTAssertEqual(hit.first?.sourceRange, range, file: file, line: line)
        XCTAssertTrue(hit.first?.text.contains(expected) == true, file: file, line: line)
    }

    func testBase64PaddedAndUnpadded() {
        let padded = Decode.base64("token=" + value + "!")
        XCTAssertTrue(padded.hasSuffix("="))
        assertOne("secret: \"\(padded)\"\n", encoded: padded, as: [.base64], contains: value)
        let unpadded = String(padded.drop { _ in false }.prefix { $0 != "=" })
        assertOne("secret=\(unpadded) # no padding\n", encoded: unpadded, as: [.base64], contains: value)
        // Single quotes, backticks and a line end around it.
        assertOne("x = '\(padded)'", encoded: padded, as: [.base64], contains: value)
        assertOne("`\(padded)`", encoded: padded, as: [.base64], contains: value)
        assertOne(padded, encoded: padded, as: [.base64], contains: value)
    }

    func testBase64StandardAlphabetWithPlusAndSlash() {
        // `>>>` and `???` encode to `+` and `/` in the standard alphabet.
        let plain = ">>>" + value + "???"
        let encoded = Decode.base64(plain)
        XCTAssertTrue(encoded.contains("+") && encoded.contains("/"))
        assertOne("v: \(encoded)\n", encoded: encoded, as: [.base64], contains: plain)
    }

    func testBase64URLAlphabet() {
        let plain = ">>>" + value + "???"
        let encoded = Decode.base64(plain).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        XCTAssertTrue(encoded.contains("-") && encoded.contains("_"))
        assertOne("https://example.invalid/cb?state=1 \(encoded) end", encoded: encoded, as: [.base64url], contains: plain)
    }

    func testHexAndPrefixedHex() {
        let encoded = Decode.hex("key=" + value)
        XCTAssertGreaterThanOrEqual(encoded.count, 32)
        assertOne("blob: \(encoded)\n", encoded: encoded, as: [.hex], contains: value)
        assertOne("const k = 0x\(encoded.uppercased());", encoded: encoded.uppercased(), as: [.hex], contains: value)
    }

    func testPercentEncodedURLWithAToken() {
        let url = "https://example.invalid/login?next=https%3A%2F%2Fapi.example.invalid%2Fv1%3Faccess_token%3D" + value + "&x=1"
        assertOne("redirect: \(url) ok\n", encoded: url, as: [.percent], contains: "?access_token=" + value)
        // The whole value percent-encoded, inside quotes.
        let all = Decode.percentAll("token=" + value)
        assertOne("u = \"\(all)\"", encoded: all, as: [.percent], contains: "token=" + value)
    }

    func testJSONStringWithUnicodeEscapedTokenCharacters() {
        let escaped = value.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
        let literal = "tok:" + escaped + "\\/end"
        assertOne("{\"key\": \"\(literal)\"}", encoded: literal, as: [.jsonEscape], contains: "tok:" + value + "/end")
    }

    func testJSONEscapedQuotesAndSlashes() {
        let literal = "{\\\"token\\\":\\\"" + value + "\\\",\\\"url\\\":\\\"https:\\/\\/example.invalid\\/\\\"}"
        let json = "{\"config\": \"\(literal)\"}"
        assertOne(json, encoded: literal, as: [.jsonEscape], contains: "{\"token\":\"" + value + "\",\"url\":\"https://example.invalid/\"}")
    }

    func testSurrogatePairsAndNonASCIIDecodeToUTF8() {
        let literal = "caf\\u00e9 \\ud83d\\ude00 " + value
        assertOne("s = \"\(literal)\";", encoded: literal, as: [.jsonEscape], contains: "café 😀 " + value)
    }

    func testHexEscapesAreJavaScriptAndOctalEscapesAreC() {
        let hexEscaped = value.utf8.map { String(format: "\\x%02x", $0) }.joined()
        assertOne("var k = '\(hexEscaped)';", encoded: hexEscaped, as: [.jsonEscape], contains: value)
        let octal = value.utf8.map { String(format: "\\%03o", $0) }.joined()
        assertOne("char *k = \"\(octal)\";", encoded: octal, as: [.cEscape], contains: value)
    }

    func testDataURIBase64AndPercentForms() {
        let payload = Decode.base64("password=" + value)
        assertOne("<a href=\"data:text/plain;charset=utf-8;base64,\(payload)\">", encoded: payload, as: [.dataURI], contains: value)
        // A short payload, below the bare base64 minimum, is decoded because the URI says so.
        let short = Decode.base64("pw=" + String(value.prefix(6)))
        XCTAssertLessThan(short.count, SpanFinder.minimumBase64Length)
        assertOne("url(data:;base64,\(short))", encoded: short, as: [.dataURI], contains: "pw=")
        let percent = "token%3D" + value + "%0A"
        assertOne("src='data:text/plain,\(percent)'", encoded: percent, as: [.dataURI], contains: "token=" + value)
    }

    func testKubernetesSecretData() {
        let encoded = Decode.base64(value)
        let yaml = """
        apiVersion: v1
        kind: Secret
        metadata:
          name: api
        type: Opaque
        data:
          username: YWRtaW5pc3RyYXRvcg==
          api-key: \(encoded)

        """
        let texts = Decode.texts(yaml)
        XCTAssertEqual(texts.first { $0.text == value }?.sourceRange, yaml.byteRange(of: encoded))
        XCTAssertEqual(texts.first { $0.text == value }?.encodings, [.base64])
        // "administrator": 13 bytes, 18 characters, shorter than any rule's match
        // (`SpanFinder.minimumBase64Length`): not decoded.
        XCTAssertNil(texts.first { $0.text == "administrator" })
        // A longer value is decoded too (text), at its own span.
        let longer = Decode.base64("administrator@acme.example")
        XCTAssertEqual(Decode.texts("  username: \(longer)\n").first { $0.text == "administrator@acme.example" }?.sourceRange, 12..<(12 + longer.count))
    }

    func testDockerConfigAuth() {
        let auth = Decode.base64("deploy-bot:" + value)
        let json = "{\"auths\":{\"registry.example.invalid\":{\"auth\":\"\(auth)\"}}}"
        assertOne(json, encoded: auth, as: [.base64], contains: "deploy-bot:" + value)
    }

    func testDoubleEncodings() {
        // Base64 of a percent-encoded string: the outer span, both encodings, outer first.
        let inner = "redirect=https%3A%2F%2Fexample.invalid%2F%3Ftoken%3D" + value
        let outer = Decode.base64(inner)
        let input = "state: \(outer)\n"
        let texts = Decode.texts(input)
        XCTAssertEqual(texts.map(\.encodings), [[.base64], [.base64, .percent]])
        XCTAssertEqual(Set(texts.map(\.sourceRange)), [input.byteRange(of: outer)!])
        XCTAssertTrue(texts[1].text.hasSuffix("?token=" + value))
        // Each level's span: the outer one in the buffer, the inner one in the outer's decoded bytes.
        XCTAssertEqual(texts[1].levelRanges, [input.byteRange(of: outer)!, 0..<inner.utf8.count])

        // Base64 of base64.
        let twice = Decode.base64(Decode.base64("user:" + value))
        let both = Decode.texts("auth=\"\(twice)\"")
        XCTAssertEqual(both.map(\.encodings), [[.base64], [.base64, .base64]])
        XCTAssertEqual(both.last?.text, "user:" + value)
        XCTAssertEqual(both.last?.sourceRange, "auth=\"\(twice)\"".byteRange(of: twice))

        // Depth 1 stops after the outer level; depth 0 decodes nothing.
        XCTAssertEqual(Decode.texts("auth=\"\(twice)\"", depth: 1).map(\.encodings), [[.base64]])
        XCTAssertEqual(Decode.texts("auth=\"\(twice)\"", depth: 0), [])
    }

    func testSeveralSpansInOrderWithExactRanges() {
        let a = Decode.base64("first:" + value), b = Decode.hex("second:" + value)
        let input = "a=\(a)\nb=\(b)\nc=plain words only\n"
        let spans = Decode.spans(input)
        XCTAssertEqual(spans.map(\.encoding), [.base64, .hex])
        XCTAssertEqual(spans.map(\.sourceRange), [input.byteRange(of: a)!, input.byteRange(of: b)!])
        XCTAssertEqual(spans.map(\.text), ["first:" + value, "second:" + value])
    }

    /// The finder skips 8-byte words that cannot be part of a candidate; a value is found
    /// whatever its alignment, in the middle of ordinary text, and every trigger (a `%`, a
    /// backslash, `data:`) right at a word's edge too.
    func testEveryAlignmentAndWordEdge() {
        let encoded = Decode.base64("user:" + value)
        let hexEscaped = value.utf8.map { String(format: "\\x%02x", $0) }.joined()
        for pad in 0..<17 {
            let prefix = "some ordinary words, " + String(repeating: "x", count: pad) + " "
            let input = prefix + encoded + " and more words after it\n"
            XCTAssertEqual(Decode.texts(input).map(\.sourceRange), [input.byteRange(of: encoded)!], "offset \(pad)")
            let percent = prefix + "p=%41" + value + " tail"
            XCTAssertEqual(Decode.texts(percent).map(\.encodings), [[.percent]], "offset \(pad)")
            let escaped = prefix + "'" + hexEscaped + "' tail"
            XCTAssertEqual(Decode.texts(escaped).map(\.sourceRange), [escaped.byteRange(of: hexEscaped)!], "offset \(pad)")
            let data = prefix + "data:;base64," + Decode.base64("pw=" + value) + " tail"
            XCTAssertEqual(Decode.texts(data).map(\.encodings), [[.dataURI]], "offset \(pad)")
        }
    }
}
