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
        var keywordIds: [String: Int] = [:]
        var keywords: [String] = []
        var byKeyword: [[Int]] = []
        var unconditional: [Int] = []
        var pathOnly: [Int] = []
        for (index, rule) in rules.enumerated() {
            // gitleaks compatibility: a path-only rule never runs on bytes (see pathOnlyRules).
            if rule.pathOnly { pathOnly.append(index); continue }
            if rule.keywords.isEmpty { unconditional.append(index); continue }
            for k in Set(rule.keywords) {
                let id: Int
                if let existing = keywordIds[k] { id = existing } else {
                    id = keywords.count
                    keywordIds[k] = id
                    keywords.append(k)
                    byKeyword.append([])
                }
                byKeyword[id].append(index)
            }
        }
        keywordIndex = KeywordIndex(keywords: keywords)
        var flat: [Int32] = []
        var starts: [Int32] = [0]
        for list in byKeyword { flat += list.map { Int32($0) }; starts.append(Int32(flat.count)) }
        keywordRules = flat
        keywordRuleStart = starts
        unconditionalRules = unconditional
        pathOnlyRules = pathOnly
        composites = CompositeRules(rules)
        wholeFilePaths = allowlists.filter {
            $0.targetRules.isEmpty && $0.regexes.isEmpty && $0.stopwords.isEmpty && $0.commits.isEmpty
        }.flatMap(\.paths)
    }

    /// gitleaks' path-only rules (`path`, no `regex`): the scanner reports a file whose path
    /// one matches (`pathOnlyMatches`); the matcher never runs them.
    public let pathOnlyRules: [Int]
    /// `[[rules.required]]` and `skipReport` (gitleaks' composite rules), applied by the
    /// matcher to each buffer's matches; nil when no rule uses them.
    let composites: CompositeRules?

    /// The path patterns of global allowlists that have nothing but `paths` and aim at every
    /// rule: a file they match cannot yield a finding whatever its content.
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

    public var ruleInfos: [RuleInfo] { rules.map { RuleInfo(id: $0.id, description: $0.description, tags: $0.tags) } }

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
        var order: [String] = []
        var byId: [String: Rule] = [:]
        var notes: [String] = []
        var disabled = Set<String>()
        var allowlists: [Allowlist] = []
        for file in files {
            for rule in file.rules {
                if let old = byId[rule.id] {
                    notes.append("\(rule.source): rule `\(rule.id)` replaces the one from \(old.source.file)")
                } else {
                    order.append(rule.id)
                }
                byId[rule.id] = rule
            }
            disabled.formUnion(file.disabledRules)
            allowlists += file.allowlists
        }
        let rules = order.filter { !disabled.contains($0) && keeping($0) }.compactMap { byId[$0] }
        return (RuleSet(rules: rules, allowlists: allowlists + extraAllowlists), notes)
    }
}
