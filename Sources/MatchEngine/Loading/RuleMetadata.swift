import ScanCore
import TOML

/// Reads the rule keys keyshape adds to gitleaks' schema for what users see about a rule
/// (confidence, checksum, severity, remediation, docs), and a rule file's `[defaults]` of
/// them: kept apart from RuleFile's gitleaks keys.
enum RuleMetadata {
    static let keys: Set<String> = ["confidence", "checksum", "severity", "remediation", "docs"]
    /// What `[defaults]` may set for every rule of its file that does not set it itself.
    static let defaultableKeys: Set<String> = ["confidence", "severity", "remediation", "docs"]

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
        case "severity":
            let v = try reader.string(t, key)
            guard let c = Severity(rawValue: v) else {
                throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): severity must be critical, high, medium or low")
            }
            rule.severity = c
        case "remediation":
            rule.remediation = try reader.string(t, key)
        case "docs":
            let v = try reader.string(t, key)
            guard v.hasPrefix("https://") || v.hasPrefix("http://") else {
                throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): docs must be an http(s) URL")
            }
            rule.docs = v
        default:
            break
        }
    }

    /// Reads a `[defaults]` table into a template rule whose set fields fill the rules' unset ones.
    static func readDefaults(_ t: TOMLTable, reader: inout TableReader) throws -> Rule? {
        guard var template = try? Rule(id: "defaults", description: "", regex: Regex("x", deferred: true)) else { return nil }
        for key in t.keys {
            if defaultableKeys.contains(key) {
                try read(key, t, into: &template, reader: &reader)
            } else {
                reader.warn(t, key, "unknown key in [defaults] (ignored)")
            }
        }
        return template
    }

    static func apply(_ defaults: Rule, to rules: inout [Rule]) {
        for i in rules.indices {
            if rules[i].confidence == nil { rules[i].confidence = defaults.confidence }
            if rules[i].severity == nil { rules[i].severity = defaults.severity }
            if rules[i].remediation == nil { rules[i].remediation = defaults.remediation }
            if rules[i].docs == nil { rules[i].docs = defaults.docs }
        }
    }
}
