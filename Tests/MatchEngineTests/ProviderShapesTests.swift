import Foundation
import XCTest
@testable import MatchEngine

/// Providers' documented value shapes (`[[rules.providerShapes]]`): a generic finding under a
/// provider's name whose value has none of the provider's shapes is dropped; one that fits
/// stays. Values are random, built at run time from the alphabets the providers document.
final class ProviderShapesTests: XCTestCase {
    static let base62 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    static let hex = Array("0123456789abcdef")

    /// A random string of `n` characters of `alphabet` holding a digit, a lower and an upper
    /// case letter where the alphabet has them (what generic rules' shape checks want).
    func random(_ n: Int, _ alphabet: [Character] = base62) -> String {
        while true {
            let s = String((0..<n).map { _ in alphabet.randomElement()! })
            let hasUpper = s.contains { $0.isUppercase } || !alphabet.contains { $0.isUppercase }
            let hasLower = s.contains { $0.isLowercase } || !alphabet.contains { $0.isLowercase }
            if s.contains(where: \.isNumber) && hasUpper && hasLower && Placeholder.reason(s) == nil { return s }
        }
    }

    func digits(_ n: Int) -> String { "9" + String((1..<n).map { _ in "0123456789".randomElement()! }) }

    lazy var pack: RuleSet = {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()) ?? []
        let files = names.compactMap { try? RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: $0) }
        return RuleSet(rules: files.flatMap(\.rules))
    }()

    func found(_ text: String) -> [Found] { scan(pack, text) }

    func testTheNamedRuleCarriesTheShapes() {
        let providers = Set(pack.providerShapes.entries.map(\.provider))
        for p in ["Telegram", "Cisco Meraki", "AWS", "Twitch"] { XCTAssertTrue(providers.contains(p), p) }
    }

    func testTelegramNameWithoutABotTokenShapeIsNoFinding() {
        // A bot id of 4 or 17 digits, or a secret part of 40 characters: no bot token.
        XCTAssertEqual(found("telegram_api_token = \"\(digits(4)):\(random(35))\"\n"), [])
        XCTAssertEqual(found("telegram_api_token = \"\(digits(17)):\(random(35))\"\n"), [])
        XCTAssertEqual(found("TELEGRAM_BOT_TOKEN=\"\(digits(9)):\(random(40))\"\n"), [])
        // The documented shape (id, `:`, 35 URL-safe characters) stays, whichever rule has it.
        let fits = "\(digits(9)):\(random(35))"
        XCTAssertEqual(found("telegram_api_token = \"\(fits)\"\n").map(\.secret), [fits])
    }

    func testMerakiNameWithoutFortyLowercaseHexIsNoFinding() {
        let mixedCase = random(39, Self.hex) + "F"
        XCTAssertEqual(found("meraki-api-key: \(mixedCase)\n"), [])
        XCTAssertEqual(found("meraki_token = \(random(64, Self.hex))R21\n"), [])
        let fits = random(40, Self.hex)
        XCTAssertEqual(found("meraki-api-key: \(fits)\n").map(\.rule), ["meraki-api-key"])
    }

    func testAWSSecretNameWithFarNarrowerAlphabetIsNoFinding() {
        // 40 or 42 hex digits where AWS documents 40 base64 characters: a digest, not a key.
        XCTAssertEqual(found("export AWS_SECRET_ACCESS_KEY=\(random(42, Self.hex))\n"), [])
        XCTAssertEqual(found("export AWS_SECRET_ACCESS_KEY='\(random(40, Self.hex))'\n"), [])
        // A real-shaped one is reported; so is an R2 secret (64 hex) under AWS's names.
        let key = random(40)
        XCTAssertEqual(found("export AWS_SECRET_ACCESS_KEY=\(key)\n").map(\.secret), [key])
        let r2 = random(64, Self.hex)
        XCTAssertEqual(found("AWS_SECRET_ACCESS_KEY=\(r2)\n").map(\.secret), [r2])
        // The check reads the provider's secret only: a session token is another shape.
        let session = random(120)
        XCTAssertEqual(found("AWS_SESSION_TOKEN=\(session)\n").map(\.secret), [session])
    }

    func testTwitchStreamNameWithoutLivePrefixIsNoFinding() {
        XCTAssertEqual(found("TWITCH_STREAM_KEY = \"\(digits(9))_\(random(23))\"\n"), [])
    }

    func testFarNarrowerAlphabet() {
        let base64 = ByteSet("A-Za-z0-9/+")
        func narrower(_ s: String) -> Bool {
            Array(s.utf8).withUnsafeBufferPointer { ProviderShapes.isFarNarrower($0, than: base64) }
        }
        XCTAssertTrue(narrower(random(40, Self.hex)))
        XCTAssertTrue(narrower(String(random(40, Self.base62).lowercased())))
        XCTAssertFalse(narrower(random(40)))           // base62: no `/` or `+`, as often
        XCTAssertFalse(narrower(random(8, Self.hex)))   // too short to tell: (1/4)^8
        XCTAssertEqual(base64.count, 64)
    }

    /// Each entry pointing at a provider rule fits every example of that rule: the shape is
    /// never narrower than what the rule reports.
    func testShapesFitTheirRulesExamples() throws {
        let scratch = MatchScratch()
        for entry in pack.providerShapes.entries {
            guard let id = entry.rule else { continue }
            let rule = try XCTUnwrap(pack.rules.first { $0.id == id }, "\(entry.provider): no rule \(id)")
            XCTAssertFalse(rule.examples.isEmpty, id)
            for example in rule.examples {
                guard let open = example.range(of: "«"), let close = example.range(of: "»", range: open.upperBound..<example.endIndex) else { continue }
                var bytes = Array(example[open.upperBound..<close.lowerBound].utf8)
                let fits = bytes.withUnsafeMutableBytes { entry.fits(UnsafeRawBufferPointer($0), scratch: scratch) }
                XCTAssertTrue(fits, "\(entry.provider): an example of \(id) does not fit the shape")
            }
        }
    }
}

extension ProviderShapesTests {
    func testTheFirstLookFindsNamesAcrossSeparatorsAndCase() {
        func mentions(_ text: String, _ name: String) -> Bool {
            var bytes = Array(text.utf8)
            return bytes.withUnsafeMutableBytes { ProviderShapes.mentions(UnsafeRawBufferPointer($0), Array(name.utf8)) }
        }
        XCTAssertTrue(mentions("export NEW_RELIC_LICENSE_KEY=", "newrelic"))
        XCTAssertTrue(mentions("newRelicKey: ", "newrelic"))
        XCTAssertTrue(mentions("TELEGRAM_BOT_TOKEN=", "telegram"))
        XCTAssertFalse(mentions("api_token = ", "telegram"))
        XCTAssertFalse(mentions("tele", "telegram"))
    }
}
