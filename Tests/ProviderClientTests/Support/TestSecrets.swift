import Foundation
import XCTest

/// Secrets assembled at run time: the project scans its own sources, and a literal canary
/// or realistic key would (rightly) make that scan fail.
enum TestSecrets {
    static let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"

    /// `sk-ant-api03-` + 93 characters of [A-Za-z0-9_-] + `AA`: the shape and entropy of a
    /// real Anthropic key, so the builtin `anthropic-api-key` rule matches it.
    static let anthropicKey = "sk-ant-" + "api03-" + spread(93, step: 29, offset: 7) + "AA"
    static let anthropicReplacement = "sk-ant-" + "api03-" + spread(93, step: 37, offset: 3) + "AA"
    /// `sk-proj-` + 48 alphanumerics, the shape the `openai-project-api-key` rule matches.
    static let openAIKey = "sk-" + "proj-" + spread(48, step: 23, offset: 5, alphabet: alphanumerics)
    /// The device's token for the app's own proxy.
    static let appToken = "app-" + "tok-" + spread(32, step: 19, offset: 11, alphabet: alphanumerics)
    static let protectedHeaderValue = "org-" + "canary-" + canary

    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    static let urlSafe = alphanumerics + ["_", "-"]

    /// A high-entropy run: consecutive characters a fixed stride apart in the alphabet.
    static func spread(_ count: Int, step: Int, offset: Int, alphabet: [Character] = urlSafe) -> String {
        String((0..<count).map { alphabet[($0 * step + offset) % alphabet.count] })
    }

    static var all: [String] { [canary, anthropicKey, anthropicReplacement, openAIKey, appToken, protectedHeaderValue] }
}

/// Fails when `text` holds `secret` or any 12-byte fragment of it. Never prints `text`.
func XCTAssertNoSecret(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    for secret in TestSecrets.all {
        let bytes = Array(secret.utf8)
        let width = min(12, bytes.count)
        for start in 0...(bytes.count - width) {
            let fragment = String(decoding: bytes[start..<start + width], as: UTF8.self)
            if text.contains(fragment) {
                XCTFailNoValue("\(what) contains a fragment of a secret (at offset \(start))", file: file, line: line)
                return
            }
        }
    }
}

func XCTFailNoValue(_ message: String, file: StaticString, line: UInt) {
    XCTFail(message, file: file, line: line)
}
