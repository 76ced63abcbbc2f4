extension RuleSet {
    /// Which path-only rules report the file at `path`: a rule whose path pattern matches,
    /// unless its own allowlists drop it (`allowlisted` false) or a global allowlist allows it
    /// (`allowlisted` true, counted as suppressed). A path pattern or allowlist that gives up
    /// counts as matching and not allowing (fail closed), and is handed to `onFailure`.
    public func pathOnlyMatches(_ path: String, commit: String? = nil, scratch: MatchScratch,
                                onFailure: (RuleFailure) -> Void) -> [(ruleIndex: Int, allowlisted: Bool)] {
        var result: [(ruleIndex: Int, allowlisted: Bool)] = []
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let subject = AllowlistSubject(secret: empty, match: empty, line: empty, path: path, commit: commit)
        rules: for index in pathOnlyRules {
            let rule = rules[index]
            guard let pattern = rule.path else { continue }
            switch pattern.test(path, scratch: scratch) {
            case .yes: break
            case .no: continue
            case .failed(let message): onFailure(RuleFailure(ruleIndex: index, message: message, stage: .pathFilter))
            }
            if rule.skipReport { continue }
            for a in rule.allowlists {
                switch a.verdict(subject, scratch: scratch) {
                case .allows: continue rules
                case .doesNotAllow: break
                case .failed(let message): onFailure(RuleFailure(ruleIndex: index, message: message, stage: .allowlist))
                }
            }
            var allowlisted = false
            for a in allowlists where a.targetRules.isEmpty || a.targetRules.contains(rule.id) {
                switch a.verdict(subject, scratch: scratch) {
                case .allows: allowlisted = true
                case .doesNotAllow: break
                case .failed(let message): onFailure(RuleFailure(ruleIndex: index, message: message, stage: .allowlist))
                }
                if allowlisted { break }
            }
            result.append((index, allowlisted))
        }
        return result
    }
}
