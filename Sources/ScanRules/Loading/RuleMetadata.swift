import ScanCore
import TOML

/// Reads the rule keys keyshape adds to gitleaks' schema for what users see about a rule
/// (confidence, checksum): kept apart from RuleFile's gitleaks keys.
enum RuleMetadata {
    static let keys: Set<String> = ["confidence", "checksum"]

    static func read(_ key: String, _ t: TOMLTable, into rule: inout Rule, reader: inout TableReader) throws {
        let id = rule.id
        switch key {
        case "confidence":
            let v = try reader.string(t, key)
            guard let c = Confidence(rawValue: v) else {
                throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): confidence must be high, medium or low")
            }
            rule.confidence = c
        case "checksum":
            let v = try reader.string(t, key)
            guard let c = Checksum(rawValue: v) else {
                let known = Checksum.allCases.map(\.rawValue).joined(separator: ", ")
                throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): checksum must be one of: \(known)")
            }
            rule.checksum = c
        default:
            break
        }
    }
}
