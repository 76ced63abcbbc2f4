@testable import CredentialStore
import Foundation
import XCTest

/// Secrets used by the tests, assembled at runtime: the project scans its own
/// sources, and a literal canary or realistic key would trip its rules.
enum TestSecrets {
    static let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"
    static let anthropicKey = "sk-ant-" + "api03-" + String(repeating: "Ab3", count: 31) + "AA"
    static let anthropicReplacement = "sk-ant-" + "api03-" + String(repeating: "Zq7", count: 31) + "QQ"
    static let openAIKey = "sk-" + "proj-" + String(repeating: "Xy5", count: 20)
    /// A key of no checked provider that contains the canary.
    static let canaryKey = canary + "-key"
    static let canaryHeader = canary + "-header"
}

/// Everything a value could leak through when a type is printed or logged.
func renderings(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var streamed = ""
    print(value, to: &streamed)
    var output = [String(describing: value), String(reflecting: value), "\(value)", dumped, streamed]
    if let error = value as? Error {
        output.append(error.localizedDescription)
        output.append(String(describing: error as NSError))
    }
    output.append(contentsOf: Mirror(reflecting: value).children.map { String(describing: $0.value) })
    return output
}

func XCTAssertNoLeak(_ values: [Any], of secret: String = TestSecrets.canary, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(values.isEmpty, "nothing to check", file: file, line: line)
    for value in values {
        for (index, text) in renderings(of: value).enumerated() where text.contains(secret) {
            // Never print `text`: it contains the secret.
            XCTFail("rendering #\(index) of a \(type(of: value)) contains the secret", file: file, line: line)
        }
    }
}

func makeRecord(_ id: String = "work", provider: ProviderKind = ProviderKind("custom"),
                baseURL: String = "https://llm.example.com/v1") -> ConnectionRecord {
    ConnectionRecord(id: id, provider: provider, displayName: "Work \(id)", baseURL: URL(string: baseURL)!,
                     modelPreferences: ModelPreferences(defaultModel: "model-large", preferredModels: ["model-small"]))
}
