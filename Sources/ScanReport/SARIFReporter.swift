import ScanCore

/// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers: one run, the loaded
/// rules as `tool.driver.rules`, one result per finding with a physical location and
/// `partialFingerprints`. No snippet, and messages name the rule, never the value.
///
/// Artifact URIs are relative to `%SRCROOT%` (the git work tree's root, which the CLI finds;
/// see SARIFSettings), so code scanning can open the file an alert names. A finding that
/// both the working tree and the history report (`audit`: same rule, path and secretHash)
/// is one result, the working tree's: that is the line code scanning can show today, and
/// the commits that added it go into its `properties.addedInCommits`. JSON and text keep both,
/// since "where it is" and "which commit added it" are two facts.
public enum SARIFReporter {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// - Parameter includeSuppressed: also a result for each suppressed finding (the result
    ///   keeps them only when asked), carrying `suppressions`; every other result then carries
    ///   an empty `suppressions` array, which in SARIF says "not suppressed".
    public static func report(_ result: ScanResult, includeSuppressed: Bool = false, settings: SARIFSettings = SARIFSettings()) -> String {
        let all: [(Finding, Suppression?)] = result.findings.map { ($0, nil) }
            + (includeSuppressed ? result.suppressed.map { ($0.finding, $0.suppression) } : [])
        let (shown, addedIn) = mergingHistoryIntoTree(all)
        let uri = { (path: String) in uriEncode(settings.artifactPath(path)) }
        // Only rules that fired, in a stable order, so ruleIndex is meaningful and the file small.
        let used = Set(shown.map(\.0.rule))
        let rules = result.rules.filter { used.contains($0.id) }
        var indexOf: [String: Int] = [:]
        for (i, r) in rules.enumerated() { indexOf[r.id] = i }

        let driverRules: [JSONWriter.Value] = rules.map { r in
            var pairs: [(String, JSONWriter.Value)] = [
                ("id", .string(r.id)),
                ("name", .string(camelName(r.id))),
                ("shortDescription", .object([("text", .string(r.description))])),
                ("fullDescription", .object([("text", .string(r.description + ": a secret of this kind is present in the scanned content."))])),
                ("defaultConfiguration", .object([("level", .string("error"))])),
                ("help", .object(help(r))),
            ]
            if let docs = r.docs { pairs.append(("helpUri", .string(docs))) }
            pairs.append(("properties", .object([("tags", .array((["security", "secret"] + r.tags).map { .string($0) })),
                                                 ("security-severity", .string(r.severity.securitySeverity)),
                                                 ("precision", .string(r.confidence.rawValue))])))
            return .object(pairs)
        }

        let results: [JSONWriter.Value] = shown.map { f, suppression in
            var pairs: [(String, JSONWriter.Value)] = [("ruleId", .string(f.rule))]
            if let i = indexOf[f.rule] { pairs.append(("ruleIndex", .int(i))) }
            pairs.append(("level", .string("error")))
            pairs.append(("message", .object([("text", .string(message(f)))])))
            pairs.append(("locations", .array([location(f.location, uri: uri)])))
            // GitHub code scanning tracks an alert across commits by this; its own default is
            // a hash of the line's text, which would be a hash of the secret. keyshape's
            // fingerprint (rule, place, ordinal) holds no value, survives moved lines and is
            // the same on every run; the secret hash (keyed, per run unless a key is given)
            // is a property, not a fingerprint, so it cannot split an alert.
            pairs.append(("partialFingerprints", .object([
                ("primaryLocationLineHash", .string(f.fingerprint + ":1")),
                ("keyshapeFingerprint/v2", .string(f.fingerprint)),
            ])))
            if includeSuppressed { pairs.append(("suppressions", .array(suppression.map { [self.suppression($0)] } ?? []))) }
            var properties: [(String, JSONWriter.Value)] = [("confidence", .string(f.confidence.rawValue)), ("secretHash", .string(f.secretHash))]
            if let checksum = f.checksum { properties.append(("checksum", .bool(checksum))) }
            if let commits = addedIn[mergeKey(f)], suppression == nil {
                properties.append(("addedInCommits", .array(commits.map { .string($0) })))
            }
            pairs.append(("properties", .object(properties)))
            return .object(pairs)
        }

        let notifications: [JSONWriter.Value] = result.issues.map { issue in
            var pairs: [(String, JSONWriter.Value)] = [
                ("level", .string("error")),
                ("message", .object([("text", .string(issue.message))])),
            ]
            if !issue.path.isEmpty {
                pairs.append(("locations", .array([.object([("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(uri(issue.path))), ("uriBaseId", .string("%SRCROOT%"))])),
                ]))])])))
            }
            return .object(pairs)
        }

        var runPairs: [(String, JSONWriter.Value)] = [
            ("tool", .object([("driver", .object([
                ("name", .string("keyshape")),
                ("version", .string(KeyshapeVersion.current)),
                ("semanticVersion", .string(KeyshapeVersion.current)),
                ("rules", .array(driverRules)),
            ]))])),
            ("automationDetails", .object([("id", .string(settings.category))])),
        ]
        if let root = settings.sourceRoot {
            runPairs.append(("originalUriBaseIds", .object([("%SRCROOT%", .object([("uri", .string(fileURI(directory: root)))]))])))
        }
        runPairs += [
            ("invocations", .array([.object([
                ("executionSuccessful", .bool(result.issues.isEmpty)),
                ("toolExecutionNotifications", .array(notifications)),
            ])])),
            ("results", .array(results)),
        ]
        let run: JSONWriter.Value = .object(runPairs)
        let root: JSONWriter.Value = .object([
            ("$schema", .string(schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
        return JSONWriter.render(root, pretty: true) + "\n"
    }

    static let genericHelp = "Revoke the credential, remove it from the code and its history, and load it at run time from a secret store."

    /// The rule's remediation (or the generic advice) and, in markdown, its documentation link.
    static func help(_ r: RuleInfo) -> [(String, JSONWriter.Value)] {
        let text = r.remediation ?? genericHelp
        var markdown = text
        if let docs = r.docs { markdown += " See [the provider's documentation](\(docs))." }
        return [("text", .string(text)), ("markdown", .string(markdown))]
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
        // The tag's name and the notes ref stay in the location (the artifact URI): the
        // message names the kind of text only.
        if case .commitText(let commit, let field) = f.location.provenance.root {
            switch field {
            case .tag: text += " in the message of an annotated tag on commit \(commit)"
            case .note: text += " in a note on commit \(commit)"
            case .message: text += " in the message of commit \(commit)"
            }
        } else if let commit = f.location.commit { text += " added in commit \(commit)" }
        return text
    }

    /// Text locations (files, history, staged) get a full line/column region; binaries the
    /// byte span in the file on disk.
    static func location(_ l: Location, uri: (String) -> String) -> JSONWriter.Value {
        var region: [(String, JSONWriter.Value)] = []
        if let line = l.line {
            let column = l.column ?? 1
            region.append(("startLine", .int(line)))
            region.append(("startColumn", .int(column)))
            region.append(("endLine", .int(l.endLine ?? line)))
            region.append(("endColumn", .int(l.endColumn ?? column)))
        } else {
            region.append(("byteOffset", .int(l.fileOffset ?? l.byteOffset)))
            region.append(("byteLength", .int(l.byteLength)))
        }
        let artifact = l.path.map(uri) ?? metadataURI(l) ?? uriEncode("blob/" + (l.blob ?? ""))
        return .object([("physicalLocation", .object([
            ("artifactLocation", .object([("uri", .string(artifact)), ("uriBaseId", .string("%SRCROOT%"))])),
            ("region", .object(region)),
        ]))])
    }

    /// A commit text has no file: `commit/<id>/message`, `commit/<id>/tag/<name>`,
    /// `commit/<id>/note/<notes ref>`, each byte outside the unreserved set percent-encoded.
    static func metadataURI(_ l: Location) -> String? {
        guard case .commitText(let commit, let field) = l.provenance.root else { return nil }
        var parts = ["commit", commit, field.name]
        if case .tag(let name) = field { parts.append(name) }
        if case .note(let ref) = field { parts.append(ref) }
        return uriEncode(parts.joined(separator: "/"))
    }

    struct MergeKey: Hashable { var rule: String; var path: String; var secretHash: String }

    static func mergeKey(_ f: Finding) -> MergeKey { MergeKey(rule: f.rule, path: f.location.path ?? "", secretHash: f.secretHash) }

    /// Drops a history finding (kind `commit`) when a working-tree finding (kind `file`) of
    /// the same rule, path and secretHash is reported too; returns, per kept tree finding,
    /// the commits of the history findings it stands for (sorted).
    static func mergingHistoryIntoTree(_ shown: [(Finding, Suppression?)]) -> ([(Finding, Suppression?)], [MergeKey: [String]]) {
        let inTree = Set(shown.filter { $0.0.location.kind == .file && $0.1 == nil }.map { mergeKey($0.0) })
        guard !inTree.isEmpty else { return (shown, [:]) }
        var commits: [MergeKey: Set<String>] = [:]
        let kept = shown.filter { f, suppression in
            guard f.location.kind == .commit, suppression == nil, f.location.path != nil, inTree.contains(mergeKey(f)) else { return true }
            if let c = f.location.commit { commits[mergeKey(f), default: []].insert(c) }
            return false
        }
        return (kept, commits.mapValues { $0.sorted() })
    }

    /// `file:///abs/dir/`, each path segment percent-encoded; SARIF wants the trailing slash.
    static func fileURI(directory: String) -> String {
        var path = uriEncode(directory)
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return "file://" + path
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
