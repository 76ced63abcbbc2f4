/// Which rules run on one input: every rule except those the filter stage before the matcher
/// switched off for it (the scan pipeline's `RuleFilter`: a rule whose own condition the
/// input does not meet would only have its matches dropped after). The matcher reads it and
/// knows nothing of why.
///
/// Decided rule by rule the first time the matcher needs one (a rule with keyword hits in some
/// buffer of the input), then kept for every later buffer of the same input (chunks, decoded
/// text, UTF-16 runs): most inputs have hits for none of the few conditional rules, so a mask
/// costs two small allocations and a handful of decisions, not one decision per conditional
/// rule and input. One per input and worker.
public final class RuleMask {
    /// Which rules a mask may leave out, built once per rule set: per rule, its slot among
    /// them, or -1 for a rule that always runs.
    public struct Undecided: Sendable {
        let slots: [Int32]
        let count: Int

        public init(_ undecided: [Bool]) {
            var next: Int32 = 0
            slots = undecided.map { u in
                guard u else { return -1 }
                defer { next += 1 }
                return next
            }
            count = Int(next)
        }

        /// Whether any rule is undecided (with none, no mask is needed).
        public var isEmpty: Bool { count == 0 }
    }

    private let undecided: Undecided
    /// Per slot: 0 not yet decided, 1 runs, 2 does not; allocated at the first decision.
    private var state: [UInt8] = []
    private let decide: (Int) -> Bool

    /// - Parameter decide: whether a rule runs on this input; asked at most once a rule, and
    ///   only about undecided ones.
    public init(undecided: Undecided, decide: @escaping (Int) -> Bool) {
        self.undecided = undecided
        self.decide = decide
    }

    /// Whether rule `index` runs on this input.
    @inline(__always)
    public func runs(_ index: Int) -> Bool {
        let slot = Int(undecided.slots[index])
        if slot < 0 { return true }
        if state.isEmpty { state = [UInt8](repeating: 0, count: undecided.count) }
        switch state[slot] {
        case 1: return true
        case 2: return false
        default:
            let on = decide(index)
            state[slot] = on ? 1 : 2
            return on
        }
    }
}
