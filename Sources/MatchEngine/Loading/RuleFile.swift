import TOML

/// The parsed content of one rules file (keyshape's or a gitleaks config) or config file.
public struct RuleFile: Sendable {
    public var rules: [Rule] = []
    public var allowlists: [Allowlist] = []
    /// `[extend] disabledRules`: ids to drop from the combined set.
    public var disabledRules: [String] = []
    /// `[extend] useDefault` as written (nil when absent).
    public var useDefault: Bool?
    /// `[extend] path` as written: the base config this one extends (the CLI reads it).
    public var extendPath: String?
    /// Where `[extend] disabledRules` was written, for the warning about ids no rule has.
    public var disabledRulesPosition: SourcePosition?
    /// Everything under `[scan]` (settings are the config file's business, read by the CLI).
    public var settings: TOMLTable?
    public var warnings: [RuleLoadWarning] = []

    public init() {}
}

/// Reads rule and config files. The schema is gitleaks' where the concept is the same,
/// so a gitleaks config loads unchanged; `examples` and `negativeExamples` are keyshape's.
public enum RuleLoader {
    public enum Kind: Sendable { case rules, config }

    /// - Parameter deferCompile: compile the patterns at their first match rather than now
    ///   (keyshape's builtin rules, which its tests compile and check); a user's file is
    ///   compiled now, so a bad pattern is an error naming its line before anything runs.
    public static func load(text: String, file: String, kind: Kind = .rules, deferCompile: Bool = false) throws -> RuleFile {
        let table: TOMLTable
        do {
            table = try TOMLReader.parse(text, file: file)
        } catch let error as TOMLError {
            throw RuleLoadError(SourcePosition(file: error.file, line: error.line, column: error.column), error.message)
        }
        return try load(table: table, file: file, kind: kind, deferCompile: deferCompile)
    }

    public static func load(table: TOMLTable, file: String, kind: Kind = .rules, deferCompile: Bool = false) throws -> RuleFile {
        var reader = TableReader(file: file)
        reader.deferCompile = deferCompile
        var result = RuleFile()
        var defaults: Rule?
        for key in table.keys {
            let pos = reader.position(table, key)
            switch key {
            case "title", "description", "minVersion":
                break
            case "extend":
                let ext = try reader.table(table, key)
                for k in ext.keys {
                    switch k {
                    case "useDefault": result.useDefault = try reader.bool(ext, k)
                    case "disabledRules":
                        result.disabledRules = try reader.strings(ext, k)
                        result.disabledRulesPosition = reader.position(ext, k)
                    case "path": result.extendPath = try reader.string(ext, k)
                    case "url":
                        reader.warn(ext, k, "`[extend] url` is not followed (keyshape never fetches); pass the base file with --rules instead")
                    default: reader.warn(ext, k, "unknown key in [extend] (ignored)")
                    }
                }
            case "rules":
                // A config's rules add to the loaded ones (the CLI leaves out any that would
                // replace one, and runs a scanned tree's as `fromRepository`).
                for value in try reader.tables(table, key) {
                    result.rules.append(try readRule(value, reader: &reader))
                }
            case "allowlist":
                result.allowlists.append(try readAllowlist(try reader.table(table, key), reader: &reader, global: true))
            case "allowlists":
                for value in try reader.tables(table, key) {
                    result.allowlists.append(try readAllowlist(value, reader: &reader, global: true))
                }
            case "scan" where kind == .config:
                result.settings = try reader.table(table, key)
            case "defaults" where kind == .rules:
                defaults = try RuleMetadata.readDefaults(try reader.table(table, key), reader: &reader)
            default:
                _ = pos
                reader.warn(table, key, "unknown key (ignored)")
            }
        }
        if let defaults { RuleMetadata.apply(defaults, to: &result.rules) }
        result.warnings = reader.warnings
        return result
    }

    /// How a message names a rule: "rule `ID`" when the id has the shape of a rule id
    /// (lowercase letters and digits in words joined by `-`, `_` or `.`, at most 64
    /// characters, which every builtin and gitleaks id has), else just "rule" and the message's
    /// position. Warnings and errors never otherwise quote a rules or config file: its keys
    /// and values are text from the file, and a key pasted where a name or value goes would
    /// reach stderr and CI logs. Keys keyshape defines (`regex`, `secretGroup`) are named.
    static func named(_ id: String) -> String {
        let bytes = Array(id.utf8)
        let word: (UInt8) -> Bool = { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) }
        let joiner: (UInt8) -> Bool = { $0 == 0x2d || $0 == 0x5f || $0 == 0x2e }
        let plain = !bytes.isEmpty && bytes.count <= 64 && word(bytes[0]) && word(bytes[bytes.count - 1])
            && bytes.allSatisfy { word($0) || joiner($0) }
            && !zip(bytes, bytes.dropFirst()).contains { joiner($0) && joiner($1) }
        return plain ? "rule `\(id)`" : "rule"
    }

    /// `Array(text.lowercased().utf8)`, without Unicode case mapping for ASCII text (where
    /// both agree): the pack's 8,026 stopwords, nearly all ASCII, go through this on every
    /// start, a pre-commit hook's too.
    static func lowercasedBytes(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return Array(text.lowercased().utf8) }
        for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] |= 0x20 }
        return bytes
    }

    /// One `[[rules.providerShapes]]` entry (see `ProviderShape`).
    static func readProviderShape(_ e: TOMLTable, rule id: String, reader: inout TableReader) throws -> ProviderShape {
        let at = SourcePosition(file: reader.file, line: e.position?.line ?? 0, column: e.position?.column ?? 1)
        for k in ["provider", "names", "shape", "source"] where e[k] == nil {
            throw RuleLoadError(at, "\(RuleLoader.named(id)): a `[[rules.providerShapes]]` entry has no `\(k)`")
        }
        for k in e.keys where !["provider", "names", "heads", "shape", "alphabet", "rule", "source"].contains(k) {
            reader.warn(e, k, "\(RuleLoader.named(id)): unknown key in `[[rules.providerShapes]]` (ignored)")
        }
        let shape = try reader.compile("^(?:" + (try reader.string(e, "shape")) + ")$", e, "shape")
        return ProviderShape(provider: try reader.string(e, "provider"), names: try reader.strings(e, "names"),
                             heads: e["heads"] == nil ? [] : try reader.strings(e, "heads"), shape: shape,
                             alphabet: e["alphabet"] == nil ? nil : ByteSet(try reader.string(e, "alphabet")),
                             rule: e["rule"] == nil ? nil : try reader.string(e, "rule"), source: try reader.string(e, "source"))
    }

    static func readRule(_ t: TOMLTable, reader: inout TableReader) throws -> Rule {
        let start = SourcePosition(file: reader.file, line: t.position?.line ?? 0, column: t.position?.column ?? 1)
        guard t["id"] != nil else { throw RuleLoadError(start, "rule has no `id`") }
        let id = try reader.string(t, "id")
        let regex: Regex
        let structural = t["kind"] != nil
        if structural {
            let kind = try reader.string(t, "kind")
            guard kind == NamedCredentialPass.kind else {
                throw RuleLoadError(reader.position(t, "kind"), "\(RuleLoader.named(id)): kind must be \(NamedCredentialPass.kind)")
            }
            guard t["regex"] == nil else { throw RuleLoadError(reader.position(t, "regex"), "\(RuleLoader.named(id)): a rule with `kind` has no `regex`") }
        }
        let pathOnly = t["regex"] == nil && !structural
        if structural {
            regex = try Regex("(*FAIL)", deferred: true)
        } else if pathOnly {
            // gitleaks' path-only rule: the file is the finding. Its placeholder pattern is
            // never run (RuleSet keeps such rules out of the keyword index).
            guard t["path"] != nil else { throw RuleLoadError(start, "\(RuleLoader.named(id)) has no `regex` (and no `path`, as a path-only rule would)") }
            regex = try Regex("(*FAIL)", deferred: true)
        } else {
            regex = try reader.compileRule(try reader.string(t, "regex"), t, id: id)
        }
        var rule = Rule(id: id, description: id, regex: regex, source: start)
        rule.pathOnly = pathOnly
        if structural {
            let providers = t["providers"] == nil ? [] : try reader.strings(t, "providers")
            rule.namedCredentials = NamedCredentialPass(providers: providers)
        }
        for key in t.keys {
            switch key {
            case "id", "regex", "kind": break
            case "providers" where structural: break
            case "providerShapes" where structural:
                rule.providerShapes = try reader.tables(t, key).map { try readProviderShape($0, rule: id, reader: &reader) }
            case "skipReport": rule.skipReport = try reader.bool(t, key)
            case "override": rule.overrides = try reader.bool(t, key)
            case "required":
                for r in try reader.tables(t, key) {
                    let at = SourcePosition(file: reader.file, line: r.position?.line ?? start.line, column: r.position?.column ?? 1)
                    guard r["id"] != nil else { throw RuleLoadError(at, "\(RuleLoader.named(id)): a `[[rules.required]]` entry has no `id`") }
                    var required = RequiredRule(id: try reader.string(r, "id"))
                    for k in r.keys {
                        switch k {
                        case "id": break
                        case "withinLines", "withinColumns":
                            let n = try reader.integer(r, k)
                            guard n >= 0 else { throw RuleLoadError(reader.position(r, k), "\(RuleLoader.named(id)): `\(k)` must not be negative") }
                            if k == "withinLines" { required.withinLines = n } else { required.withinColumns = n }
                        default: reader.warn(r, k, "\(RuleLoader.named(id)): unknown key in `[[rules.required]]` (ignored)")
                        }
                    }
                    rule.required.append(required)
                }
            case "description": rule.description = try reader.string(t, key)
            case "secretGroup":
                let g = try reader.integer(t, key)
                guard g >= 0, g <= regex.captureCount else {
                    throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): secretGroup \(g) but the regex has \(regex.captureCount) groups")
                }
                rule.secretGroup = g == 0 && regex.captureCount > 0 ? nil : g
            case "entropy": rule.entropy = try reader.double(t, key)
            case "hexEntropy": rule.hexEntropy = try reader.double(t, key)
            case "shortEntropyMargin": rule.shortEntropyMargin = try reader.double(t, key)
            case "keywords": rule.keywords = try reader.strings(t, key).map { $0.lowercased() }.filter { !$0.isEmpty }
            case "distinctiveKeywords": rule.distinctiveKeywords = try reader.strings(t, key).map { $0.lowercased() }
            case "path":
                let p = try reader.string(t, key)
                do { rule.path = try Regex.compilingRE2(p, deferred: reader.deferCompile) } catch let e as Regex.CompileError {
                    throw RuleLoadError(reader.position(t, key), "\(RuleLoader.named(id)): invalid path regex: \(e.message) at offset \(e.offset)")
                }
            case "tags": rule.tags = try reader.strings(t, key)
            case "examples": rule.examples = try reader.strings(t, key)
            case "negativeExamples": rule.negativeExamples = try reader.strings(t, key)
            case "allowlists":
                for a in try reader.tables(t, key) { rule.allowlists.append(try readAllowlist(a, reader: &reader, global: false)) }
            case "allowlist":
                rule.allowlists.append(try readAllowlist(try reader.table(t, key), reader: &reader, global: false))
            case _ where RuleMetadata.keys.contains(key):
                try RuleMetadata.read(key, t, into: &rule, reader: &reader)
            default:
                reader.warn(t, key, "\(RuleLoader.named(id)): unknown key (ignored)")
            }
        }
        return rule
    }

    static func readAllowlist(_ t: TOMLTable, reader: inout TableReader, global: Bool) throws -> Allowlist {
        var a = Allowlist()
        for key in t.keys {
            switch key {
            case "description": a.description = try reader.string(t, key)
            case "regexes": a.regexes = try reader.strings(t, key).map { try reader.compile($0, t, key) }
            case "paths": a.paths = try reader.strings(t, key).map { try reader.compile($0, t, key) }
            case "stopwords":
                a.stopwords = try reader.strings(t, key).map(RuleLoader.lowercasedBytes)
                // Every secret contains the empty string: refused rather than ignored, so a
                // config that would silence everything stops the scan (exit 2) instead of
                // running with a different meaning than its author wrote.
                if a.stopwords.contains(where: \.isEmpty) {
                    throw RuleLoadError(reader.position(t, key), "an empty stopword would allowlist every secret")
                }
            case "commits": a.commits = try reader.strings(t, key).map { $0.lowercased() }
            case "regexTarget":
                let v = try reader.string(t, key)
                guard let target = Allowlist.Target(rawValue: v) else {
                    throw RuleLoadError(reader.position(t, key), "regexTarget must be secret, match or line")
                }
                a.regexTarget = target
            case "condition":
                let v = try reader.string(t, key).uppercased()
                guard let c = Allowlist.Condition(rawValue: v) else {
                    throw RuleLoadError(reader.position(t, key), "condition must be OR or AND")
                }
                a.condition = c
            case "targetRules" where global: a.targetRules = try reader.strings(t, key)
            default: reader.warn(t, key, "unknown allowlist key (ignored)")
            }
        }
        return a
    }
}

/// Typed access to TOML values with errors that point at the key.
struct TableReader {
    let file: String
    var deferCompile = false
    var warnings: [RuleLoadWarning] = []

    init(file: String) { self.file = file }

    func position(_ t: TOMLTable, _ key: String) -> SourcePosition {
        let p = t.position(of: key) ?? t.position
        return SourcePosition(file: file, line: p?.line ?? 0, column: p?.column ?? 1)
    }

    mutating func warn(_ t: TOMLTable, _ key: String, _ message: String) {
        warnings.append(RuleLoadWarning(position: position(t, key), message: message))
    }

    private func mismatch(_ t: TOMLTable, _ key: String, _ expected: String) -> RuleLoadError {
        RuleLoadError(position(t, key), "`\(key)` must be \(expected), not \(t[key]?.typeName ?? "missing")")
    }

    func string(_ t: TOMLTable, _ key: String) throws -> String {
        guard let v = t[key]?.stringValue else { throw mismatch(t, key, "a string") }
        return v
    }
    func bool(_ t: TOMLTable, _ key: String) throws -> Bool {
        guard let v = t[key]?.boolValue else { throw mismatch(t, key, "a boolean") }
        return v
    }
    func integer(_ t: TOMLTable, _ key: String) throws -> Int {
        guard let v = t[key]?.integerValue else { throw mismatch(t, key, "an integer") }
        return Int(v)
    }
    func double(_ t: TOMLTable, _ key: String) throws -> Double {
        guard let v = t[key]?.doubleValue else { throw mismatch(t, key, "a number") }
        return v
    }
    func strings(_ t: TOMLTable, _ key: String) throws -> [String] {
        guard let items = t[key]?.arrayValue else { throw mismatch(t, key, "an array of strings") }
        return try items.map { item in
            guard let s = item.stringValue else { throw mismatch(t, key, "an array of strings") }
            return s
        }
    }
    func table(_ t: TOMLTable, _ key: String) throws -> TOMLTable {
        guard let v = t[key]?.tableValue else { throw mismatch(t, key, "a table") }
        return v
    }
    func tables(_ t: TOMLTable, _ key: String) throws -> [TOMLTable] {
        if let single = t[key]?.tableValue { return [single] }
        guard let items = t[key]?.arrayValue else { throw mismatch(t, key, "an array of tables") }
        return try items.map { item in
            guard let table = item.tableValue else { throw mismatch(t, key, "an array of tables") }
            return table
        }
    }
    func compile(_ pattern: String, _ t: TOMLTable, _ key: String) throws -> Regex {
        do { return try Regex.compilingRE2(pattern, deferred: deferCompile) } catch let e as Regex.CompileError {
            throw RuleLoadError(position(t, key), "invalid regex in `\(key)`: \(e.message) at offset \(e.offset)")
        }
    }

    /// A rule's `regex`, with the start limit the matcher's keyword windows need.
    func compileRule(_ pattern: String, _ t: TOMLTable, id: String) throws -> Regex {
        do { return try Regex.compilingRE2(pattern, startLimit: true, deferred: deferCompile) } catch let e as Regex.CompileError {
            throw RuleLoadError(position(t, "regex"), "\(RuleLoader.named(id)): invalid regex: \(e.message) at offset \(e.offset)")
        }
    }
}

extension Regex {
    /// Compiles `pattern` as PCRE2; when PCRE2 refuses it, as RE2 syntax (gitleaks' engine)
    /// translated to PCRE2 (RE2Translation). A pattern PCRE2 accepts keeps PCRE2's meaning;
    /// one neither reads is an error with PCRE2's message about the pattern as written.
    /// Deferred patterns (keyshape's own, compiled by its tests) are taken as written.
    static func compilingRE2(_ pattern: String, startLimit: Bool = false, deferred: Bool) throws -> Regex {
        if deferred { return try Regex(pattern, startLimit: startLimit, deferred: true) }
        do {
            return try Regex(pattern, startLimit: startLimit)
        } catch let original as Regex.CompileError {
            let translated = RE2Translation.translate(pattern)
            guard translated != pattern, let regex = try? Regex(translated, startLimit: startLimit) else { throw original }
            return regex
        }
    }
}

extension RuleFile {
    /// Warnings about ids that files name and no loaded rule has: a `disabledRules` entry (a
    /// gitleaks config written for gitleaks' pack names ids keyshape's pack spells otherwise;
    /// the rule it meant stays on) and a `[[rules.required]]` id (its rule can never report).
    /// Notes, not errors: gitleaks loads such configs too.
    public static func unknownIdWarnings(_ files: [RuleFile]) -> [RuleLoadWarning] {
        var known = Set<String>()
        for file in files { for rule in file.rules { known.insert(rule.id) } }
        var warnings: [RuleLoadWarning] = []
        for file in files {
            for id in file.disabledRules where !known.contains(id) {
                warnings.append(RuleLoadWarning(position: file.disabledRulesPosition ?? SourcePosition(file: "", line: 0),
                                                message: "`[extend] disabledRules` names \(RuleLoader.named(id)), which no loaded rule has"))
            }
            for rule in file.rules {
                for required in rule.required where !known.contains(required.id) {
                    warnings.append(RuleLoadWarning(position: rule.source,
                                                    message: "\(RuleLoader.named(rule.id)) requires \(RuleLoader.named(required.id)), which no loaded rule has: it can never report"))
                }
            }
        }
        return warnings
    }
}
