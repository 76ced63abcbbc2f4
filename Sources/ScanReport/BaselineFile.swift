import Foundation
import ScanCore

/// The baseline: fingerprints of accepted findings, with where they were, never what.
public enum BaselineFile {
    public struct ReadError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public static func write(_ findings: [Finding]) -> String {
        let entries: [JSONWriter.Value] = findings.map { f in
            .object([("fingerprint", .string(f.fingerprint)), ("rule", .string(f.rule)),
                     ("path", .string(f.location.path ?? f.location.blob ?? ""))])
        }
        let root: JSONWriter.Value = .object([
            ("tool", .string("keyshape")), ("version", .int(1)), ("findings", .array(entries)),
        ])
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    /// What a `--baseline` file lists: fingerprints (a keyshape baseline or report) or places
    /// (a gitleaks JSON report, see GitleaksBaseline).
    public struct Contents: Sendable {
        public var fingerprints: Set<String> = []
        public var entries: [BaselineEntry] = []
    }

    /// Accepts keyshape baselines, a keyshape JSON report and a gitleaks JSON report.
    public static func load(_ data: Data, path: String) throws -> Contents {
        if let object = try? JSONSerialization.jsonObject(with: data), object is [Any] {
            guard let entries = GitleaksBaseline.entries(fromReport: object) else {
                throw ReadError(message: "\(path): not a gitleaks report (an array of findings with `RuleID` and `File`)")
            }
            return Contents(entries: entries)
        }
        return Contents(fingerprints: try read(data, path: path))
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
