import ScanCore

/// `--format json` (one object) and `--format jsonl` (one finding a line), as contract.md shows.
public enum JSONReporter {
    /// - Parameter context: per finding, index for index, what a datastore adds (repository,
    ///   status, note); empty for a scan's report.
    public static func report(_ result: ScanResult, context: [FindingContext] = []) -> String {
        var pairs: [(String, JSONWriter.Value)] = [
            ("tool", .object([("name", .string("keyshape")), ("version", .string(KeyshapeVersion.current))])),
            ("findings", .array(result.findings.enumerated().map { finding($1, context: context.indices.contains($0) ? context[$0] : nil) })),
        ]
        // Only with --include-suppressed: each suppressed finding, with why.
        if !result.suppressed.isEmpty {
            pairs.append(("suppressed", .array(result.suppressed.map { s in
                guard case .object(var fields) = finding(s.finding) else { return finding(s.finding) }
                fields.append(("suppression", .string(s.suppression.rawValue)))
                return .object(fields)
            })))
        }
        pairs.append(("errors", .array(result.issues.map { .object([("path", .string($0.path)), ("message", .string($0.message))]) })))
        pairs.append(("stats", stats(result.stats)))
        let root: JSONWriter.Value = .object(pairs)
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    public static func reportLines(_ result: ScanResult, context: [FindingContext] = []) -> String {
        result.findings.enumerated().map { n, f in
            JSONWriter.render(finding(f, context: context.indices.contains(n) ? context[n] : nil), pretty: false) + "\n"
        }.joined()
    }

    static func stats(_ s: ScanStats) -> JSONWriter.Value {
        .object([("files", .int(s.files)), ("bytes", .int(s.bytes)), ("commits", .int(s.commits)),
                 ("blobs", .int(s.blobs)), ("binaries", .int(s.binaries)), ("seconds", .double(s.seconds)),
                 ("suppressed", .object([("allowlist", .int(s.suppressed.allowlist)), ("inline", .int(s.suppressed.inline)),
                                         ("baseline", .int(s.suppressed.baseline))])),
                 ("allowlistedFiles", .int(s.allowlistedFiles)), ("belowMinConfidence", .int(s.belowMinConfidence))])
    }

    static func finding(_ f: Finding, context: FindingContext? = nil) -> JSONWriter.Value {
        var pairs: [(String, JSONWriter.Value)] = [
            ("rule", .string(f.rule)),
            ("description", .string(f.description)),
            ("fingerprint", .string(f.fingerprint)),
            ("secretHash", .string(f.secretHash)),
            ("severity", .string(f.severity.rawValue)),
            ("confidence", .string(f.confidence.rawValue)),
        ]
        // Only where the rule's format documents a checksum.
        if let checksum = f.checksum { pairs.append(("checksum", .bool(checksum))) }
        pairs.append(("location", location(f.location)))
        // From a datastore only (`keyshape report`): added after the contract's fields.
        if let context {
            if let r = context.repository { pairs.append(("repository", .string(r))) }
            if let s = context.status { pairs.append(("status", .string(s))) }
            if let n = context.note { pairs.append(("note", .string(n))) }
        }
        return .object(pairs)
    }

    /// The location's fields in the order `Location.fields` gives, whatever its provenance.
    static func location(_ l: Location) -> JSONWriter.Value {
        .object(l.fields.map { key, value in
            switch value {
            case .string(let text): return (key, .string(text))
            case .int(let number): return (key, .int(number))
            case .strings(let list): return (key, .array(list.map { .string($0) }))
            }
        })
    }
}
