import XCTest
import TestSupport
@testable import MatchEngine

/// The engine's placeholder filter: each class of stand-in value is recognised, after a
/// real prefix too, and random tokens of every common alphabet and length are not.
final class PlaceholderTests: XCTestCase {
    func placeholder(_ value: String, _ prefixes: [String] = []) -> Bool { Placeholder.isPlaceholder(value, prefixes: prefixes) }

    func testInOrderRuns() {
        XCTAssertTrue(placeholder("abcdefghijklmnopqrstuvwxyz"))
        XCTAssertTrue(placeholder("0123456789012345678901234567890123456789"))
        XCTAssertTrue(placeholder("ABCDEFGHIJKLMNOP"))
        XCTAssertTrue(placeholder("9876543210"))
        XCTAssertTrue(placeholder("0123456789abcdef0123456789abcdef"))
        XCTAssertTrue(placeholder("ghp_abcdefghijklmnopqrstuvwxyz0123456789", ["ghp_"]))
        XCTAssertTrue(placeholder("ghp_abcdefghij7Hq2LmZp0xW9rT3kB5nC8vYd1s", ["ghp_"]))
        XCTAssertTrue(placeholder("sk-ant-api03-0123456789012345678901234567890123456789", ["sk-ant-api03"]))
        XCTAssertTrue(placeholder("1234512345123451234512345"))
    }

    /// Counting runs hidden by alternating case or by interleaving two runs, after a real
    /// prefix: the detection corpus's `sk_live_aBcDeF…`, `sk_live_1a2b3c…`, `ghp_A1B2C3…`
    /// were reported as keys before.
    func testCountingRunsInAlternatingCaseOrInterleaved() {
        XCTAssertTrue(placeholder("sk_live_aBcDeFgHiJkLmNoPqRsTuVwX", ["sk_live_"]))
        XCTAssertTrue(placeholder("AbCdEfGhIjKlMnOpQrStUvWx"))
        XCTAssertTrue(placeholder("sk_live_1a2b3c4d5e6f7g8h9i0j1k2l", ["sk_live_"]))
        XCTAssertTrue(placeholder("ghp_A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8", ["ghp_"]))
        XCTAssertTrue(placeholder("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", ["xoxb-"]))
        XCTAssertTrue(placeholder("a1b2c3d4e5f6g7h8i9j0"))
        // Short stretches inside a random token stay keys (put together here, so this file
        // holds no key-shaped literal for the self-audit to report).
        XCTAssertFalse(placeholder("sk_live_" + "aBcDq7Lm2ZxW9tR4vNp8Ke3s", ["sk_live_"]))
        XCTAssertFalse(placeholder("ghp_" + "A1B2k9Xq7LmZ3pW0tR4vN8sK2eYd6fHj", ["ghp_"]))
        // Digits that pair up are no interleaving (a real Asana token's shape).
        XCTAssertFalse(placeholder("2/9314455667710918/5015420555409761:3e5fee3bfa5faf4e3ab805f9e485c4d8"))
    }

    /// A stand-in base64 secret written by hand: the alphabet in order with digits and signs
    /// strewn between the letters, in mixed case. Kept apart from a random base64 secret.
    func testAlphabetSpelledBetweenDigitsAndSigns() {
        XCTAssertEqual(Placeholder.reason("aB3cD+eF9gHi/Jk2LmN0pQ8rStU="), .spelledAlphabet)
        XCTAssertEqual(Placeholder.reason("Secret=" + "mN1oP+qR2sT/uV3wX4yZ5", prefixes: ["secret="]), .spelledAlphabet)
        XCTAssertTrue(placeholder("sk_live_" + "ab1CD2ef3GH4ij5KL6mn7OP8", ["sk_live_"]))
        // Seven letters in order among 34 are not enough (8 needed; 9 in a 44-character base64 secret).
        XCTAssertNil(Placeholder.reason("q7Zk3mP+xR2vL9sWd4HbN" + "ab3cd4efg" + "8Tj0Yu5Wa6Ce1Gi2Ko"))
        XCTAssertNil(Placeholder.reason("Jq2W8e+Rt5Yu/Io9Pa3Sd7Fg1Hj4Kl6Zx0Cv8Bn2Mq5Wr7Ty3Ui="))
    }

    /// Each check answers with its own reason, for `rules check` to name.
    func testReasons() {
        XCTAssertEqual(Placeholder.reason("${API_TOKEN}"), .template)
        XCTAssertEqual(Placeholder.reason("your_api_key_here"), .markerWord)
        XCTAssertEqual(Placeholder.reason("P@55w0rd!"), .standInWord)
        XCTAssertEqual(Placeholder.reason("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", prefixes: ["ghp_"]), .fill)
        XCTAssertEqual(Placeholder.reason("abababababababababab"), .repetition)
        XCTAssertEqual(Placeholder.reason("0123456789abcdef0123"), .countingRun)
        XCTAssertEqual(Placeholder.reason("AbCdEfGhIjKlMnOpQrStUvWx"), .countingInDisguise)
        XCTAssertNil(Placeholder.reason("q7Zk3mPxR2vL9sWd4HbN"))
    }

    func testRepetition() {
        XCTAssertTrue(placeholder("aaaaaaaaaaaaaaaaaaaaaaaa"))
        XCTAssertTrue(placeholder("abababababababababab"))
        XCTAssertTrue(placeholder("1234512345"))
        XCTAssertTrue(placeholder("0000000000000000000000000000000000000000"))
        XCTAssertTrue(placeholder("AKIAZZZZZZZZZZZZZZZZ", ["akia"]))
        XCTAssertTrue(placeholder("Qk3aaaaaaaaRt7mWp2Lx", []))
    }

    func testFill() {
        XCTAssertTrue(placeholder("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
        XCTAssertTrue(placeholder("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", ["ghp_"]))
        XCTAssertTrue(placeholder("AKIAXXXXXXXXXXXXXXXX", ["akia"]))
        XCTAssertTrue(placeholder("sk_live_****************************", ["sk_live_"]))
        XCTAssertTrue(placeholder("xxxx-xxxx-xxxx-xxxx"))
        XCTAssertTrue(placeholder("........................"))
        XCTAssertTrue(placeholder("________________"))
        XCTAssertTrue(placeholder("----------------"))
    }

    func testMarkerWords() {
        XCTAssertTrue(placeholder("AKIAIOSFODNN7EXAMPLE", ["akia"]))
        XCTAssertTrue(placeholder("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        XCTAssertTrue(placeholder("my-sample-token-1234"))
        XCTAssertTrue(placeholder("dummy_api_key_7f3k2"))
        XCTAssertTrue(placeholder("your_api_key_here"))
        XCTAssertTrue(placeholder("YOUR-TOKEN-HERE"))
        XCTAssertTrue(placeholder("changeme"))
        XCTAssertTrue(placeholder("PLACEHOLDER_VALUE"))
        XCTAssertTrue(placeholder("[REDACTED]"))
        XCTAssertTrue(placeholder("sk_test_dummy8hG3kLm2", ["sk_test_"]))
        // A short word by chance inside a mixed-case token, not at an edge: no marker.
        XCTAssertFalse(placeholder("Qk3mdummyRt7mWp2LxZa9"))
    }

    func testTemplateReferences() {
        XCTAssertTrue(placeholder("${GITHUB_TOKEN}"))
        XCTAssertTrue(placeholder("prefix-${env.SECRET}"))
        XCTAssertTrue(placeholder("{{ secrets.API_KEY }}"))
        XCTAssertTrue(placeholder("<your-api-key>"))
        XCTAssertTrue(placeholder("%(password)s"))
        XCTAssertTrue(placeholder("$API_TOKEN"))
        XCTAssertTrue(placeholder("@DB_PASSWORD@"))
        XCTAssertTrue(placeholder("%SECRET_KEY%"))
        XCTAssertTrue(placeholder("#{vault_token}"))
    }

    func testProviderDocumentationValues() {
        XCTAssertTrue(placeholder("ghp_16C7e42F292c6912E7710c838347Ae178B4a", ["ghp_"]))
        XCTAssertTrue(placeholder("AKIAI44QH8DHBEXAMPLE", ["akia"]))
        XCTAssertTrue(placeholder("je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"))
    }

    func testStandInWordsInDisguise() {
        for value in ["P@55w0rd!", "Passw0rd123", "p4ssword", "S3cr3t!", "secret123", "Ch4ngeM3", "PASSWD99", "Password@123", "Pa$$w0rd"] {
            XCTAssertTrue(placeholder(value), value)
        }
        // The word and more than digits and signs after it, another word, or too short: real.
        for value in ["Secretary1", "P4ssw0rdXyz9", "s3cr3t-P4ss!", "Passage12", "S3cr3", "xPassw0rd1"] {
            XCTAssertFalse(placeholder(value), value)
        }
    }

    func testRealLookingValuesAreNotPlaceholders() {
        // Built in pieces so the project's own self-audit finds no key-shaped literal here.
        for value in ["ghp_" + "yT5cMXIRH5Fvx7fyOoLxsqxkaLDtPxG0w30s", "AKIA" + "Q3EGRU7SN5XZ6O2B", "3f9c1a7be2d04c55a8e1b6f0d9c7e2a4",
                      "hunter2hunter", "Tr0ub4dor&3", "correct-horse-battery-staple", "s3cr3t-P4ss!"] {
            XCTAssertFalse(placeholder(value, ["ghp_", "akia"]), value)
        }
    }

    func testLongEncodedBlobsWithZeroRunsAreNotPlaceholders() {
        // An OpenSSH private key body: base64 of binary with runs of zero bytes (`AAAAAAAAAAA`).
        let body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBm2h7Qk1xZpN4sR8vT0yU3wL6eJcKfHaDgBiMnOqPrSgAAAJg5sLtK"
        XCTAssertFalse(placeholder("-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----"))
    }

    /// In the engine, for any rule: a placeholder makes no match, a real-looking value does.
    func testMatcherDropsPlaceholdersForEveryRule() throws {
        let set = try rules("""
        [[rules]]
        id = "prefixed"
        regex = '''(tok_[A-Za-z0-9]{20})'''
        keywords = ["tok_"]
        [[rules]]
        id = "assigned"
        regex = '''secret=(\\S+)'''
        keywords = ["secret="]
        """)
        XCTAssertEqual(scan(set, "tok_abcdefghijklmnopqrst"), [])
        XCTAssertEqual(scan(set, "tok_XXXXXXXXXXXXXXXXXXXX"), [])
        XCTAssertEqual(scan(set, "secret=${API_SECRET}"), [])
        XCTAssertEqual(scan(set, "secret=your_secret_here"), [])
        let token = "tok_" + "q7Zk3mPxR2vL9sWd4HbN"
        XCTAssertEqual(scan(set, token), [Found(rule: "prefixed", secret: token)])
        XCTAssertEqual(scan(set, "secret=" + "q7Zk3mPxR2vL"), [Found(rule: "assigned", secret: "q7Zk3mPxR2vL")])
    }

    /// 100 000 random tokens of each common alphabet and length, with and without a prefix:
    /// none may be taken for a placeholder. Seeded, so a failure names a value that can be
    /// reproduced.
    func testRandomTokensAreNeverPlaceholders() {
        let hexLower = Array("0123456789abcdef".utf8), hexUpper = Array("0123456789ABCDEF".utf8)
        let alnumLower = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let base62 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let base64 = base62 + Array("+/".utf8), base64url = base62 + Array("-_".utf8)
        let cases: [(String, [UInt8], Int)] = [
            ("hex32", hexLower, 32), ("hex40", hexLower, 40), ("hex64", hexLower, 64), ("HEX32", hexUpper, 32),
            ("alnum20", alnumLower, 20), ("alnum32", alnumLower, 32), ("base62-20", base62, 20), ("base62-36", base62, 36),
            ("base62-64", base62, 64), ("base64-40", base64, 40), ("base64-88", base64, 88), ("base64url-43", base64url, 43),
            ("base64url-108", base64url, 108), ("upper-alnum16", Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8), 16),
        ]
        var rng = SeededGenerator(seed: 0x6b65_7973_6861_7065)
        var falsePositives: [String] = []
        // Eight characters from each 64-bit draw (a byte scaled to the alphabet): the debug
        // build spends its time here otherwise.
        func fill(_ token: UnsafeMutableBufferPointer<UInt8>, from start: Int, _ alphabet: [UInt8]) {
            var bits: UInt64 = 0, left = 0
            for i in start..<token.count {
                if left == 0 { bits = rng.next(); left = 8 }
                token[i] = alphabet[(Int(bits & 0xFF) * alphabet.count) >> 8]
                bits >>= 8
                left -= 1
            }
        }
        for (name, alphabet, length) in cases {
            let token = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
            defer { token.deallocate() }
            for _ in 0..<100_000 {
                fill(token, from: 0, alphabet)
                if Placeholder.isPlaceholder(UnsafeRawBufferPointer(token)), falsePositives.count < 20 {
                    falsePositives.append("\(name): \(String(decoding: token, as: UTF8.self))")
                }
            }
        }
        // With a real prefix, the tail judged alone.
        let token = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 40)
        defer { token.deallocate() }
        _ = token.initialize(from: Array("ghp_".utf8) + [UInt8](repeating: 0, count: 36))
        for _ in 0..<100_000 {
            fill(token, from: 4, base62)
            if Placeholder.isPlaceholder(UnsafeRawBufferPointer(token), prefixes: ["ghp_"]), falsePositives.count < 20 {
                falsePositives.append("ghp: " + String(decoding: token, as: UTF8.self))
            }
        }
        XCTAssertEqual(falsePositives, [])
    }
}
