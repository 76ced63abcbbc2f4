import ScanCore

/// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers: one run, the loaded
/// rules as `tool.driver.rules`, one result per finding with a physical location and
/// `partialFingerprints`. No snippet, and messages name the rule, never the value.
public enum SARIFReporter {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// - Parameter includeSuppressed: also a result for each suppressed finding (the result
    ///   keeps them only when asked), carrying `suppressions`; every other result then carries
    ///   an empty `suppressions` array, which in SARIF says "not suppressed".
    public static func report(_ result: ScanResult, includeSuppressed: Bool = false) -> String {
        let shown: [(Finding, Suppression?)] = result.findings.map { ($0, nil) }
            + (includeSuppressed ? result.suppressed.map { ($0.finding, $0.suppression) } : [])
        // Only rules that fired, in a stable order, so ruleIndex is meaningful and the file small.
        let used = Set(shown.map(\.0.rule))
        let rules = result.rules.filter { used.contains($0.id) }
        var indexOf: [String: Int] = [:]
        for (i, r) in rules.enumerated() { indexOf[r.id] = i }

        let driverRules: [JSONWriter.Value] = rules.map { r in
            .object([
                ("id", .string(r.id)),
                ("name", .string(camelName(r.id))),
                ("shortDescription", .object([("text", .string(r.description))])),
                ("fullDescription", .object([("text", .string(r.description + ": a secret of this kind is present in the scanned content."))])),
                ("defaultConfiguration", .object([("level", .string("error"))])),
                ("help", .object([("text", .string("Revoke the credential, remove it from the code and its history, and load it at run time from a secret store."))])),
                ("properties", .object([("tags", .array((["security", "secret"] + r.tags).map { .string($0) })),
                                        ("security-severity", .string("8.0"))])),
            ])
        }

        let results: [JSONWriter.Value] = shown.map { f, suppression in
            var pairs: [(String, JSONWriter.Value)] = [("ruleId", .string(f.rule))]
            if let i = indexOf[f.rule] { pairs.append(("ruleIndex", .int(i))) }
            pairs.append(("level", .string("error")))
            pairs.append(("message", .object([("text", .string(message(f)))])))
            pairs.append(("locations", .array([location(f.location)])))
            pairs.append(("partialFingerprints", .object([
                ("keyshapeFingerprint/v1", .string(f.fingerprint)),
                ("keyshapeSecretHash/v1", .string(f.secretHash)),
            ])))
            if includeSuppressed { pairs.append(("suppressions", .array(suppression.map { [self.suppression($0)] } ?? []))) }
            return .object(pairs)
        }

        let notifications: [JSONWriter.Value] = result.issues.map { issue in
            var pairs: [(String, JSONWriter.Value)] = [
                ("level", .string("error")),
                ("message", .object([("text", .string(issue.message))])),
            ]
            if !issue.path.isEmpty {
                pairs.append(("locations", .array([.object([("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(uriEncode(issue.path)))])),
                ]))])])))
            }
            return .object(pairs)
        }

        let run: JSONWriter.Value = .object([
            ("tool", .object([("driver", .object([
                ("name", .string("keyshape")),
                ("version", .string(KeyshapeVersion.current)),
                ("semanticVersion", .string(KeyshapeVersion.current)),
                ("rules", .array(driverRules)),
            ]))])),
            ("invocations", .array([.object([
                ("executionSuccessful", .bool(result.issues.isEmpty)),
                ("toolExecutionNotifications", .array(notifications)),
            ])])),
            ("results", .array(results)),
        ])
        let root: JSONWriter.Value = .object([
            ("$schema", .string(schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    /// A marker in the scanned file is `inSource`; a config or rule file's allowlist and the
    /// baseline live outside the file: `external`.
    static func suppression(_ kind: Suppression) -> JSONWriter.Value {
        let (where_, why): (String, String)
        switch kind {
        case .inline: (where_, why) = ("inSource", "keyshape:allow or gitleaks:allow on the line")
        case .allowlist: (where_, why) = ("external", "a global allowlist (config file or rule file)")
        case .baseline: (where_, why) = ("external", "listed in the baseline file")
        }
        return .object([("kind", .string(where_)), ("status", .string("accepted")), ("justification", .string(why))])
    }

    static func message(_ f: Finding) -> String {
        var text = "\(f.description) (\(f.rule))"
        if f.location.kind == .binary {
            text += " in " + [f.location.arch, f.location.section ?? f.location.format].compactMap { $0 }.joined(separator: " ")
        }
        if let commit = f.location.commit { text += " added in commit \(commit)" }
        return text
    }

    static func location(_ l: Location) -> JSONWriter.Value {
        var region: [(String, JSONWriter.Value)] = []
        if let line = l.line {
            region.append(("startLine", .int(line)))
            if let c = l.column { region.append(("startColumn", .int(c))) }
            if let e = l.endLine { region.append(("endLine", .int(e))) }
            if let e = l.endColumn { region.append(("endColumn", .int(e))) }
        } else {
            region.append(("byteOffset", .int(l.fileOffset ?? l.byteOffset)))
            region.append(("byteLength", .int(l.byteLength)))
        }
        let uri = l.path ?? ("blob/" + (l.blob ?? ""))
        return .object([("physicalLocation", .object([
            ("artifactLocation", .object([("uri", .string(uriEncode(uri))), ("uriBaseId", .string("%SRCROOT%"))])),
            ("region", .object(region)),
        ]))])
    }

    /// A relative URI reference: RFC 3986 unreserved characters and `/` as they are, every
    /// other byte percent-encoded (spaces, `#`, `?`, non-ASCII, invalid UTF-8 repaired).
    static func uriEncode(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    static func camelName(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
