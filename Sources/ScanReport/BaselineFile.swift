import Foundation
import ScanCore

/// The baseline: fingerprints of accepted findings, with where they were, never what.
public enum BaselineFile {
    public struct ReadError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// A v2 baseline: its key (random, kept here and nowhere else; it keys the value checks,
    /// so keep the file as private as the code it covers) and, per finding, the fingerprint,
    /// the check of its value under that key, rule and path. No value, no secret hash.
    public static func write(_ findings: [Finding], key: [UInt8]) -> String {
        let entries: [JSONWriter.Value] = findings.map { f in
            var fields: [(String, JSONWriter.Value)] = [("fingerprint", .string(f.fingerprint))]
            if let check = f.baselineCheck { fields.append(("check", .string(check))) }
            fields += [("rule", .string(f.rule)), ("path", .string(f.location.path ?? f.location.blob ?? ""))]
            return .object(fields)
        }
        let root: JSONWriter.Value = .object([
            ("tool", .string("keyshape")), ("version", .int(2)), ("key", .string(hex(key))), ("findings", .array(entries)),
        ])
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func unhex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < digits.count {
            guard let b = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
            i += 2
        }
        return out
    }

    /// What a `--baseline` file lists: fingerprints (a keyshape baseline or report) or places
    /// (a gitleaks JSON report, see GitleaksBaseline).
    public struct Contents: Sendable {
        /// Fingerprints matched as they are (entries without a value check).
        public var fingerprints: Set<String> = []
        public var entries: [BaselineEntry] = []
        /// A v2 baseline's key and value checks.
        public var key: [UInt8]? = nil
        public var checks: Set<String> = []
        /// A release 0.2 baseline's fingerprints (its fingerprints held a hash of the value).
        public var legacyFingerprints: Set<String> = []
    }

    /// Accepts keyshape baselines, a keyshape JSON report and a gitleaks JSON report.
    public static func load(_ data: Data, path: String) throws -> Contents {
        if let object = try? JSONSerialization.jsonObject(with: data), object is [Any] {
            guard let entries = GitleaksBaseline.entries(fromReport: object) else {
                throw ReadError(message: "\(path): not a gitleaks report (an array of findings with `RuleID` and `File`)")
            }
            return Contents(entries: entries)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ReadError(message: "\(path): not a keyshape baseline (a JSON object with `findings`)")
        }
        let fingerprints = try read(data, path: path)
        switch root["version"] as? Int {
        case 2:
            guard let text = root["key"] as? String, let key = unhex(text), key.count == 32 else {
                throw ReadError(message: "\(path): a version 2 baseline needs its `key` (64 hex digits)")
            }
            var contents = Contents(key: key)
            for f in (root["findings"] as? [[String: Any]]) ?? [] {
                if let check = f["check"] as? String { contents.checks.insert(check) }
                else if let fp = f["fingerprint"] as? String { contents.fingerprints.insert(fp) }
            }
            return contents
        case 1:
            return Contents(legacyFingerprints: fingerprints)
        default:
            // A keyshape JSON report: this release's fingerprints, or 0.2's.
            return Contents(fingerprints: fingerprints, legacyFingerprints: fingerprints)
        }
    }

    /// Accepts keyshape baselines and, for convenience, a keyshape JSON report.
    public static func read(_ data: Data, path: String) throws -> Set<String> {
        guard let object = try? JSONSerialization.jsonObject(with: data),
              let root = object as? [String: Any],
              let findings = root["findings"] as? [[String: Any]]
        else { throw ReadError(message: "\(path): not a keyshape baseline (a JSON object with `findings`)") }
        var fingerprints = Set<String>()
        for f in findings {
            guard let fp = f["fingerprint"] as? String else {
                throw ReadError(message: "\(path): a baseline entry has no `fingerprint`")
            }
            fingerprints.insert(fp)
        }
        return fingerprints
    }
}
