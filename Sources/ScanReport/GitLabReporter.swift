import ScanCore

/// `--format gitlab`: GitLab's `secret_detection` security report (schema 15.2.1, the last of
/// the 15.x series; a copy is in Fixtures/gitlab), which a job names under
/// `artifacts: reports: secret_detection` so merge requests and the vulnerability report show
/// the findings.
///
/// Per finding: a stable id, the rule's description as the name, a description naming rule
/// and place, the severity, the rule id as the primary identifier, and the location (file,
/// lines, commit). `raw_source_code_extract` is never written: the schema's "unsanitized
/// excerpt of the affected source code" would be the value. GitLab renders `description` and
/// `solution` as Markdown, so names in them are code spans and rule text is escaped
/// (MarkdownReporter); `name` and `location` are plain strings.
///
/// As in SARIF, a history finding of the same rule, path and secret as a working-tree finding
/// (`audit`) is one vulnerability, the working tree's, whose description names the commits
/// that added it. Scan errors are `scan.messages` at level `warn` (GitLab's "partial error":
/// the findings listed are still real).
public enum GitLabReporter {
    public static let schemaVersion = "15.2.1"
    public static let schemaURI = "https://gitlab.com/gitlab-org/security-products/security-report-schemas/-/raw/v\(schemaVersion)/dist/secret-detection-report-format.json"
    /// Where a file finding has no commit (a working tree, staged files, a build product):
    /// what GitLab's own secret detection writes there.
    static let noCommit = "0000000"

    public static func report(_ result: ScanResult, times: (start: String, end: String)? = nil) -> String {
        let (shown, addedIn) = SARIFReporter.mergingHistoryIntoTree(result.findings.map { ($0, nil) })
        var remediation: [String: String] = [:]
        for r in result.rules { remediation[r.id] = r.remediation }

        let tool: JSONWriter.Value = .object([
            ("id", .string("keyshape")),
            ("name", .string("keyshape")),
            ("version", .string(KeyshapeVersion.current)),
            ("vendor", .object([("name", .string("keyshape"))])),
        ])
        var scan: [(String, JSONWriter.Value)] = [
            ("analyzer", tool),
            ("scanner", tool),
            ("type", .string("secret_detection")),
            ("start_time", .string(times?.start ?? "1970-01-01T00:00:00")),
            ("end_time", .string(times?.end ?? "1970-01-01T00:00:00")),
            ("status", .string("success")),
        ]
        if !result.issues.isEmpty {
            scan.append(("messages", .array(result.issues.map { issue in
                .object([("level", .string("warn")), ("value", .string(DisplayText.escaped(issue.description)))])
            })))
        }
        let vulnerabilities: [JSONWriter.Value] = shown.map { f, _ in
            vulnerability(f, solution: remediation[f.rule] ?? SARIFReporter.genericHelp,
                          addedIn: addedIn[SARIFReporter.mergeKey(f)] ?? [])
        }
        let root: JSONWriter.Value = .object([
            ("version", .string(schemaVersion)),
            ("schema", .string(schemaURI)),
            ("scan", .object(scan)),
            ("vulnerabilities", .array(vulnerabilities)),
        ])
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    static func vulnerability(_ f: Finding, solution: String, addedIn: [String]) -> JSONWriter.Value {
        let l = f.location
        var location: [(String, JSONWriter.Value)] = [("file", .string(file(l)))]
        if let line = l.line {
            location.append(("start_line", .int(line)))
            location.append(("end_line", .int(l.endLine ?? line)))
        }
        let commit = l.commit.flatMap { $0.isEmpty ? nil : $0 } ?? addedIn.first ?? noCommit
        location.append(("commit", .object([("sha", .string(commit))])))

        let code = { (raw: String) in MarkdownReporter.code(raw) }
        var text = "\(code(f.description)) (rule \(code(f.rule))) at \(MarkdownReporter.code(MarkdownReporter.place(l), escaped: true))"
        if let c = l.commit, !c.isEmpty { text += ", added in commit \(code(c))" }
        if !addedIn.isEmpty { text += ", added in commit\(addedIn.count == 1 ? "" : "s") " + addedIn.map(code).joined(separator: ", ") }
        text += ". keyshape reports where a secret is, never its value; fingerprint \(code(f.fingerprint))."

        return .object([
            ("id", .string(id(f))),
            ("name", .string(truncated(DisplayText.escaped(f.description), to: 255))),
            ("description", .string(text)),
            ("severity", .string(severity(f.severity))),
            ("solution", .string(truncated(MarkdownReporter.plain(solution), to: 7000))),
            ("identifiers", .array([.object([
                ("type", .string("keyshape_rule_id")),
                ("name", .string("keyshape rule " + DisplayText.escaped(f.rule))),
                ("value", .string(f.rule.isEmpty ? "unnamed" : f.rule)),
            ])])),
            ("location", .object(location)),
        ])
    }

    /// The fingerprint (rule, place, ordinal: no value), and for a history finding the commit,
    /// since one fingerprint can be added by several commits.
    static func id(_ f: Finding) -> String {
        guard let commit = f.location.commit, !commit.isEmpty else { return "keyshape-" + f.fingerprint }
        return "keyshape-" + f.fingerprint + "-" + String(commit.prefix(12))
    }

    /// The file part of the place: the path, the archive members after `!`; for commit texts
    /// and unreachable blobs the same words text output uses.
    static func file(_ l: Location) -> String {
        var name: String
        switch l.provenance.root {
        case .unreachableBlob(let blob): name = "blob " + blob
        case .commitText(_, let field):
            switch field {
            case .message: name = "(commit message)"
            case .tag(let tag): name = "(tag " + tag + ")"
            case .note(let ref): name = "(note " + ref + ")"
            }
        default: name = l.path ?? ""
        }
        for member in l.provenance.archiveMembers { name += "!" + Location.display(member) }
        return name
    }

    /// The schema's maxLength counts characters (code points).
    static func truncated(_ text: String, to limit: Int) -> String {
        var out = ""
        out.unicodeScalars.append(contentsOf: text.unicodeScalars.prefix(limit))
        return out
    }

    static func severity(_ s: Severity) -> String {
        switch s {
        case .low: return "Low"
        case .medium: return "Medium"
        case .high: return "High"
        case .critical: return "Critical"
        }
    }
}
