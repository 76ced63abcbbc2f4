import ScanCore

/// The rules of one scan, compiled once and shared read-only by every worker.
public final class RuleSet: @unchecked Sendable {
    public let rules: [Rule]
    public let allowlists: [Allowlist]
    let keywordIndex: KeywordIndex
    /// For each keyword id k, the rules that name it: `keywordRules[keywordRuleStart[k]..<keywordRuleStart[k + 1]]`.
    let keywordRules: [Int32]
    let keywordRuleStart: [Int32]
    /// Rules without keywords run on every buffer.
    let unconditionalRules: [Int]

    public init(rules: [Rule], allowlists: [Allowlist] = []) {
        self.rules = rules
        self.allowlists = allowlists
        // One dictionary lookup per (rule, keyword) and flat lists built by counting, with no
        // per-rule Set or per-keyword array: this ran once per start-up for 555 rules.
        var keywordIds: [String: Int32] = [:]
        keywordIds.reserveCapacity(rules.count * 2)
        var keywords: [String] = []
        var pairs: [(keyword: Int32, rule: Int32)] = []
        pairs.reserveCapacity(rules.count * 2)
        var unconditional: [Int] = []
        var pathOnly: [Int] = []
        // By index: `enumerated()` copied every Rule (a retain and release per field).
        for index in rules.indices {
            // gitleaks compatibility: a path-only rule never runs on bytes (see pathOnlyRules).
            if rules[index].pathOnly { pathOnly.append(index); continue }
            let ruleKeywords = rules[index].keywords
            if ruleKeywords.isEmpty { unconditional.append(index); continue }
            let firstPair = pairs.count
            for k in ruleKeywords {
                let id: Int32
                if let existing = keywordIds[k] { id = existing } else {
                    id = Int32(keywords.count)
                    keywordIds[k] = id
                    keywords.append(k)
                }
                // A keyword a rule names twice still lists the rule once (rules name a few).
                if !pairs[firstPair...].contains(where: { $0.keyword == id }) { pairs.append((id, Int32(index))) }
            }
        }
        keywordIndex = KeywordIndex(keywords: keywords)
        var starts = [Int32](repeating: 0, count: keywords.count + 1)
        for pair in pairs { starts[Int(pair.keyword) + 1] += 1 }
        for k in 0..<keywords.count { starts[k + 1] += starts[k] }
        var flat = [Int32](repeating: 0, count: pairs.count)
        var fill = starts
        // Pairs come in rule order, so each keyword's rules stay in rule order.
        for pair in pairs {
            flat[Int(fill[Int(pair.keyword)])] = pair.rule
            fill[Int(pair.keyword)] += 1
        }
        keywordRules = flat
        keywordRuleStart = starts
        unconditionalRules = unconditional
        pathOnlyRules = pathOnly
        composites = CompositeRules(rules)
        isGeneric = rules.map(\.isGeneric)
        isNamedCredentials = rules.map { $0.namedCredentials != nil }
        hasNamedCredentials = isNamedCredentials.contains(true)
        providerShapes = ProviderShapes(rules.flatMap(\.providerShapes))
        fromRepository = rules.map(\.fromRepository)
        hasRepositoryRules = fromRepository.contains(true)
        mixesGenericAndProvider = isGeneric.contains(true) && isGeneric.contains(false)
        // The user's own only: a file the scanned repository allowlists by path is still read,
        // so what the allowlist hides there is counted and shown with --include-suppressed.
        wholeFilePaths = allowlists.filter {
            !$0.fromRepository && $0.targetRules.isEmpty && $0.regexes.isEmpty && $0.stopwords.isEmpty && $0.commits.isEmpty
        }.flatMap(\.paths)
    }

    /// gitleaks' path-only rules (`path`, no `regex`): the scanner reports a file whose path
    /// one matches (`pathOnlyMatches`); the matcher never runs them.
    public let pathOnlyRules: [Int]
    /// `[[rules.required]]` and `skipReport` (gitleaks' composite rules), applied by the
    /// matcher to each buffer's matches; nil when no rule uses them.
    let composites: CompositeRules?
    /// `Rule.isGeneric` of each rule, for `GenericYield`.
    let isGeneric: [Bool]
    /// Per rule: it is the named-credential pass (`NamedYield`).
    let isNamedCredentials: [Bool]
    let hasNamedCredentials: Bool
    /// Providers' documented value shapes, which a generic rule's match under a provider's
    /// name must fit (`ProviderShapes`).
    public let providerShapes: ProviderShapes
    /// Per rule: it came from the scanned tree (`Rule.fromRepository`).
    let fromRepository: [Bool]
    /// Whether any rule came from the scanned tree: then each buffer is matched in two passes
    /// (`Matcher.RulePass`); without, in one, as before.
    public let hasRepositoryRules: Bool
    /// Whether the set has generic and provider rules both: only then can a match yield.
    let mixesGenericAndProvider: Bool

    /// The path patterns of the user's global allowlists that have nothing but `paths` and aim
    /// at every rule: a file they match cannot yield a finding whatever its content.
    let wholeFilePaths: [Regex]

    /// Whether a global allowlist drops every finding in `path` whatever the content. Such
    /// files need not be read at all. `path` is only built when some allowlist could match.
    /// A pattern that gives up answers false: the file is read, and each finding in it meets
    /// the same pattern again in the matcher, where the failure is an error entry.
    public func allowsWholeFile(_ path: @autoclosure () -> String, scratch: MatchScratch) -> Bool {
        if wholeFilePaths.isEmpty { return false }
        let path = path()
        return wholeFilePaths.contains { $0.matches(path, scratch: scratch) }
    }

    /// Match state for `allowsWholeFile` (one per thread).
    public func makeScratch() -> MatchScratch { MatchScratch() }

    public var ruleInfos: [RuleInfo] { rules.map { RuleInfo(id: $0.id, description: $0.description, tags: $0.tags, confidence: $0.defaultConfidence,
                                                      severity: $0.effectiveSeverity, remediation: $0.remediation, docs: $0.docs) } }

    /// The ids `combining` would keep from `files` (before `keeping`), in order.
    public static func ruleIds(_ files: [RuleFile]) -> [String] {
        var seen = Set<String>()
        var order: [String] = []
        var disabled = Set<String>()
        for file in files {
            for rule in file.rules where seen.insert(rule.id).inserted { order.append(rule.id) }
            disabled.formUnion(file.disabledRules)
        }
        return order.filter { !disabled.contains($0) }
    }

    /// Combines files in order: a later rule with the same id replaces an earlier one,
    /// `disabledRules` of any file removes rules, allowlists add up.
    /// - Parameter keeping: which of the remaining rule ids to keep (`--enable-rule`,
    ///   `--disable-rule`); the keyword index is built for those only.
    public static func combining(_ files: [RuleFile], extraAllowlists: [Allowlist] = [],
                                 keeping: (String) -> Bool = { _ in true }) -> (RuleSet, [String]) {
        // Where each id's rule is (file, rule index), so a Rule is copied once, into the set.
        var order: [String] = []
        var byId: [String: (file: Int, rule: Int)] = [:]
        byId.reserveCapacity(files.reduce(0) { $0 + $1.rules.count })
        var notes: [String] = []
        // Per file, the rules that replace a loaded rule of their id without `override = true`.
        var replacing: [Int: [SourcePosition]] = [:]
        var disabled = Set<String>()
        var allowlists: [Allowlist] = []
        for (f, file) in files.enumerated() {
            for r in file.rules.indices {
                let id = file.rules[r].id
                if byId[id] != nil {
                    if !file.rules[r].overrides { replacing[f, default: []].append(file.rules[r].source) }
                } else {
                    order.append(id)
                }
                byId[id] = (f, r)
            }
            disabled.formUnion(file.disabledRules)
            allowlists += file.allowlists
        }
        for (f, sources) in replacing.sorted(by: { $0.key < $1.key }) {
            let first = sources[0]
            let more = sources.count > 1 ? " and \(sources.count - 1) more (lines \(sources.dropFirst().prefix(8).map { String($0.line) }.joined(separator: ", "))\(sources.count > 9 ? ", …" : ""))" : ""
            notes.append("\(first): warning: this rule\(more) of \(files[f].rules.first?.source.file ?? "") replace\(sources.count > 1 ? "" : "s") an earlier rule of the same id; say `override = true` in a rule when that is meant")
        }
        let rules = order.filter { !disabled.contains($0) && keeping($0) }.compactMap { id in
            byId[id].map { files[$0.file].rules[$0.rule] }
        }
        return (RuleSet(rules: rules, allowlists: allowlists + extraAllowlists), notes)
    }
}
