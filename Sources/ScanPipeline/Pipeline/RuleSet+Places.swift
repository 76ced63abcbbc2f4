import MatchEngine

/// What rules and allowlists say about places (paths, commits), which the matcher never sees:
/// the scan pipeline's half of each check (`RuleFilter`).
extension RuleSet {
    /// The filter's half of a deferred match: the rule's path filter and the allowlists that
    /// depend on path or commit, in the order the matcher would have met them. A pattern that
    /// gives up is handed to `onFailure` and decides fail closed: a path filter as if the
    /// path matched, an allowlist as if it did not allow.
    /// - Parameter path: nil for a buffer that has none (an unreachable blob, an example):
    ///   the path filter then passes and path checks fail, as for a matcher without a filter.
    public func settle(_ checks: DeferredChecks, ruleIndex: Int, path: String?, commit: String?, scratch: MatchScratch,
                onFailure: (RuleFailure) -> Void) -> DeferredChecks.Outcome {
        let rule = rules[ruleIndex]
        if checks.ruleCondition, let pattern = rule.path, let path {
            switch pattern.test(path, scratch: scratch) {
            case .yes: break
            case .no: return .drop
            case .failed(let message): onFailure(RuleFailure(ruleIndex: ruleIndex, message: message, stage: .ruleCondition))
            }
        }
        for entry in checks.entries {
            let list = entry.isRuleList ? rule.allowlists[entry.index] : allowlists[entry.index]
            switch list.placeVerdict(byteChecks: entry.byteChecks, bytePasses: entry.bytePasses, path: path, commit: commit, scratch: scratch) {
            case .allows: return entry.isRuleList ? .drop : .allowlisted
            case .doesNotAllow: continue
            case .failed(let message):
                onFailure(RuleFailure(ruleIndex: ruleIndex, message: message, stage: .allowlist))
                return .report
            }
        }
        return checks.otherwise
    }

    /// Which path-only rules report the file at `path`: a rule whose path pattern matches,
    /// unless its own allowlists drop it (`allowlisted` false) or a global allowlist allows it
    /// (`allowlisted` true, counted as suppressed). A path pattern or allowlist that gives up
    /// counts as matching and not allowing (fail closed), and is handed to `onFailure`.
    func pathOnlyMatches(_ path: String, commit: String? = nil, scratch: MatchScratch,
                         onFailure: (RuleFailure) -> Void) -> [(ruleIndex: Int, allowlisted: Bool)] {
        var result: [(ruleIndex: Int, allowlisted: Bool)] = []
        // A file has no secret, match or line of its own: byte checks read nothing.
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let subject = AllowlistSubject(secret: empty, match: empty, line: empty)
        func verdict(_ a: Allowlist) -> AllowlistVerdict {
            switch a.byteChecks(subject, scratch: scratch) {
            case .failure(let failure): return .failed(failure.message)
            case .success(let bytes):
                return a.placeVerdict(byteChecks: bytes.checks, bytePasses: bytes.passes, path: path, commit: commit, scratch: scratch)
            }
        }
        rules: for index in pathOnlyRules {
            let rule = rules[index]
            guard let pattern = rule.path else { continue }
            switch pattern.test(path, scratch: scratch) {
            case .yes: break
            case .no: continue
            case .failed(let message): onFailure(RuleFailure(ruleIndex: index, message: message, stage: .ruleCondition))
            }
            if rule.skipReport { continue }
            for a in rule.allowlists {
                switch verdict(a) {
                case .allows: continue rules
                case .doesNotAllow: break
                case .failed(let message): onFailure(RuleFailure(ruleIndex: index, message: message, stage: .allowlist))
                }
            }
            var allowlisted = false
            for a in allowlists where a.targetRules.isEmpty || a.targetRules.contains(rule.id) {
                switch verdict(a) {
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

    /// Whether a global allowlist drops every finding in `path` whatever the content. Such
    /// files need not be read at all. `path` is only built when some allowlist could match.
    /// A pattern that gives up answers false: the file is read, and each finding in it meets
    /// the same pattern again when settled, where the failure is an error entry.
    public func allowsWholeFile(_ path: @autoclosure () -> String, scratch: MatchScratch) -> Bool {
        guard allowlists.contains(where: \.coversWholeFiles) else { return false }
        let path = path()
        return allowlists.contains { $0.coversWholeFiles && $0.paths.contains { $0.matches(path, scratch: scratch) } }
    }
}

extension Allowlist {
    /// Nothing but `paths`, aimed at every rule, and the user's own: a file it matches cannot
    /// yield a finding whatever its content. (A file the scanned repository allowlists by path
    /// is still read, so what the allowlist hides there is counted and shown with
    /// --include-suppressed.)
    var coversWholeFiles: Bool {
        !fromRepository && targetRules.isEmpty && regexes.isEmpty && stopwords.isEmpty && commits.isEmpty && !paths.isEmpty
    }

    /// The place half of its verdict, given what the byte half gave (`byteChecks`): the same
    /// verdict as all its checks together at this path and commit.
    func placeVerdict(byteChecks: UInt8, bytePasses: UInt8, path: String?, commit: String?, scratch: MatchScratch) -> AllowlistVerdict {
        var checks = Int(byteChecks), passes = Int(bytePasses)
        if !commits.isEmpty {
            checks += 1
            if let c = commit, commits.contains(where: { !$0.isEmpty && c.hasPrefix($0) }) { passes += 1 }
        }
        if !paths.isEmpty {
            checks += 1
            if let p = path {
                for regex in paths {
                    switch regex.test(p, scratch: scratch) {
                    case .yes: passes += 1
                    case .no: continue
                    case .failed(let message): return .failed(message)
                    }
                    break
                }
            }
        }
        switch condition {
        case .or: return passes > 0 ? .allows : .doesNotAllow
        case .and: return checks > 0 && passes == checks ? .allows : .doesNotAllow
        }
    }
}
