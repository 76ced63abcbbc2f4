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
                 ("allowlistedFiles", .int(s.allowlistedFiles))])
    }

    static func finding(_ f: Finding, context: FindingContext? = nil) -> JSONWriter.Value {
        var pairs: [(String, JSONWriter.Value)] = [
            ("rule", .string(f.rule)),
            ("description", .string(f.description)),
            ("fingerprint", .string(f.fingerprint)),
            ("secretHash", .string(f.secretHash)),
            ("location", location(f.location)),
        ]
        // From a datastore only (`keyshape report`): added after the contract's fields.
        if let context {
            if let r = context.repository { pairs.append(("repository", .string(r))) }
            if let s = context.status { pairs.append(("status", .string(s))) }
            if let n = context.note { pairs.append(("note", .string(n))) }
        }
        return .object(pairs)
    }

    static func location(_ l: Location) -> JSONWriter.Value {
        var pairs: [(String, JSONWriter.Value)] = [("kind", .string(l.kind.rawValue))]
        func add(_ key: String, _ value: String?) { if let value { pairs.append((key, .string(value))) } }
        func add(_ key: String, _ value: Int?) { if let value { pairs.append((key, .int(value))) } }
        add("commit", l.commit)
        add("blob", l.blob)
        add("author", l.author)
        add("email", l.email)
        add("date", l.date)
        add("path", l.path)
        add("format", l.format)
        add("arch", l.arch)
        add("section", l.section)
        add("fileOffset", l.fileOffset)
        add("virtualAddress", l.virtualAddress.map { "0x" + String($0, radix: 16) })
        add("line", l.line)
        add("column", l.column)
        add("endLine", l.endLine)
        add("endColumn", l.endColumn)
        pairs.append(("byteOffset", .int(l.byteOffset)))
        pairs.append(("byteLength", .int(l.byteLength)))
        return .object(pairs)
    }
}
