import MatchEngine
import CommandLineFlags

/// `--enable-rule ID` (only these) and `--disable-rule ID`, checked against the rules loaded.
public struct RuleSelection {
    let enabled: Set<String>
    let disabled: Set<String>

    /// - Throws: `UsageError` for an id that names no loaded rule: a typo must not turn
    ///   into a scan that quietly runs every rule, or none.
    public init(_ rules: RuleFlags, loaded ids: [String]) throws {
        let known = Set(ids)
        for (flag, given) in [("--enable-rule", rules.enabled), ("--disable-rule", rules.disabled)] {
            for id in given where !known.contains(id) {
                throw UsageError(message: "\(flag) \(RuleSelection.shown(id)): no loaded rule has this id (`keyshape rules list` shows them)")
            }
        }
        enabled = Set(rules.enabled)
        disabled = Set(rules.disabled)
    }

    public func keeps(_ id: String) -> Bool { (enabled.isEmpty || enabled.contains(id)) && !disabled.contains(id) }

    /// An argument is echoed only when it has the shape of a rule id: whatever else was typed
    /// there (a key pasted by mistake, terminal control bytes) stays out of the output.
    public static func shown(_ id: String) -> String {
        id.utf8.count <= 100 && RuleChecker.idPattern.matches(id) ? "`\(id)`" : "(an argument that is not a rule id, not shown)"
    }
}
