import MatchEngine

extension RuleFailure {
    /// The error entry for a failure, once per rule and stage in one file or blob. The
    /// message is PCRE2's (no scanned bytes); `unit` is "file" or "blob".
    func describe(ruleId id: String, unit: String) -> String {
        switch stage {
        case .rule:
            return "rule `\(id)` gave up (\(message)); that rule's results for this \(unit) are incomplete"
        case .ruleCondition:
            return "rule `\(id)`: its path pattern gave up on this path (\(message)); the rule ran as if the path matched"
        case .allowlist:
            return "rule `\(id)`: an allowlist pattern gave up (\(message)); the findings it was checked on are reported, not suppressed"
        }
    }

    /// One error entry per rule and stage.
    var key: [Int] { [ruleIndex, stage == .rule ? 0 : stage == .ruleCondition ? 1 : 2] }
}
