import Foundation
import XCTest
@testable import MatchEngine

/// Values under credential-like names that are no credentials, read by the builtin pack: a
/// CSRF token in a form (Rails names it `authenticity_token`), the header segment of a JWT
/// under the Basic scheme. Values built at run time.
final class NotACredentialTests: XCTestCase {
    static let base64url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    func random(_ n: Int) -> String {
        while true {
            let s = String((0..<n).map { _ in Self.base64url.randomElement()! })
            if s.contains(where: \.isNumber) && s.contains(where: \.isUppercase) && s.contains(where: \.isLowercase)
                && Placeholder.reason(s) == nil { return s }
        }
    }

    lazy var pack: RuleSet = {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()) ?? []
        let files = names.compactMap { try? RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: $0) }
        return RuleSet(rules: files.flatMap(\.rules))
    }()

    func testAFormsAuthenticityTokenIsNoCredential() {
        let value = random(86)
        XCTAssertEqual(scan(pack, "<input type=\"hidden\" name=\"authenticity_token\" value=\"\(value)\" autocomplete=\"off\" />\n"), [])
        XCTAssertEqual(scan(pack, "authenticity_token: \"\(value)\"\n"), [])
        // The same value under a credential's name is reported.
        XCTAssertFalse(scan(pack, "<add key=\"ServiceToken\" value=\"\(value)\" />\n").isEmpty)
    }

    func testAJWTUnderTheBasicSchemeIsNoBasicCredential() {
        // {"alg":"HS256","typ":"JWT"} and {"sub":"reports"}, base64url, and a signature.
        let header = Data("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let claims = Data("{\"sub\":\"reports\"}".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let jwt = header + "." + claims + "." + random(43)
        let found = scan(pack, "curl -H \"Authorization: Basic \(jwt)\" https://api.example.org\n")
        XCTAssertFalse(found.contains { $0.rule == "generic-basic-auth-header" }, "\(found)")
        // Basic credentials are still read.
        let basic = Data("deploy:\(random(20))".utf8).base64EncodedString()
        XCTAssertEqual(scan(pack, "curl -H \"Authorization: Basic \(basic)\" https://api.example.org\n").map(\.rule), ["generic-basic-auth-header"])
    }
}
