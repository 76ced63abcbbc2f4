/// Which rules run on one input: every rule except those the filter stage before the matcher
/// switched off for it (the scan pipeline's `RuleFilter`: a rule whose own condition the
/// input does not meet would only have its matches dropped after). The matcher reads it and
/// knows nothing of why.
///
/// Decided rule by rule the first time the matcher needs one (a rule with keyword hits in some
/// buffer of the input), then kept for every later buffer of the same input (chunks, decoded
/// text, UTF-16 runs): most inputs have hits for few of the conditional rules, so a mask costs
/// a handful of decisions, not one per conditional rule and input. One per input and worker.
public final class RuleMask {
    /// Per rule: 0 not yet decided, 1 runs, 2 does not.
    private var state: [UInt8]
    private let decide: (Int) -> Bool

    /// - Parameters:
    ///   - undecided: per rule, whether `decide` is asked about it; every other rule runs.
    ///     (`RuleFilter` keeps one for the rule set and hands it to each mask.)
    ///   - decide: whether a rule runs on this input; asked at most once a rule.
    public init(undecided: [Bool], decide: @escaping (Int) -> Bool) {
        state = undecided.map { $0 ? 0 : 1 }
        self.decide = decide
    }

    /// Whether rule `index` runs on this input.
    @inline(__always)
    public func runs(_ index: Int) -> Bool {
        switch state[index] {
        case 1: return true
        case 2: return false
        default:
            let on = decide(index)
            state[index] = on ? 1 : 2
            return on
        }
    }
}
