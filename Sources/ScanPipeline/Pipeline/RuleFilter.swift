import MatchEngine

/// Where a buffer came from, as far as rules and allowlists ask: the path it was read at (a
/// file, a staged file, an archive member's path inside its file) and the commit (a commit's
/// own text). Both nil for a buffer scanned once for many places (a history blob), settled
/// later for each (`BufferFinding.pending`).
struct InputPlace: Sendable, Hashable {
    var path: String?
    var commit: String?

    init(path: String? = nil, commit: String? = nil) {
        self.path = path
        self.commit = commit
    }
}

/// The scan pipeline's filter stage around the matcher, which knows bytes and rules only.
/// Before matching: the mask of rules that run on an input (`RuleMask`), which leaves out a
/// rule whose `path` the input's path does not match, since its matches would be dropped when
/// settled. 25 rules of the pack have a `path`, many keyed on credential words: run on every
/// file, they cost the benchmark tree's scan 9% (pack 2026.12.5, 12 interleaved rounds).
/// After matching: what the matcher left pending (`DeferredChecks`: the rule's `path`, the
/// allowlists with `paths` or `commits`) settled for the place (`RuleSet.settle`).
///
/// A rule whose own allowlist allows everything at a path (`paths` alone) is not masked off
/// there: its matches still reach the matcher's yield steps (`NamedYield` drops a
/// named-credential match overlapping one), so masking it would change what is reported.
/// One per worker thread.
final class RuleFilter {
    let ruleSet: RuleSet
    private let scratch: MatchScratch
    /// The rules a mask asks about (those with a `path`).
    private let conditional: RuleMask.Undecided
    /// The last input's mask and its path: an input's buffers (chunks, decoded text, UTF-16
    /// runs, the repository pass) come one after another, so one mask serves them all.
    private var lastPath: String?
    private var lastMask: RuleMask?

    init(ruleSet: RuleSet) {
        self.ruleSet = ruleSet
        scratch = ruleSet.makeScratch()
        conditional = RuleMask.Undecided(ruleSet.rules.map(\.appliesConditionally))
    }

    /// Which rules run on a buffer from `place`: nil (every rule) without a path, for a
    /// buffer matched once for many places. A path pattern that gives up keeps its rule in
    /// (fail closed); settling its matches reports the failure.
    func mask(for place: InputPlace) -> RuleMask? {
        guard !conditional.isEmpty, let path = place.path else { return nil }
        if let lastMask, lastPath == path { return lastMask }
        let rules = ruleSet.rules, scratch = scratch
        let mask = RuleMask(undecided: conditional) { index in
            rules[index].path.map { $0.test(path, scratch: scratch) != .no } ?? true
        }
        lastPath = path
        lastMask = mask
        return mask
    }

    /// A match's pending checks settled at `place` (see `RuleSet.settle`).
    func settle(_ checks: DeferredChecks, ruleIndex: Int, place: InputPlace, onFailure: (RuleFailure) -> Void) -> DeferredChecks.Outcome {
        ruleSet.settle(checks, ruleIndex: ruleIndex, path: place.path, commit: place.commit, scratch: scratch, onFailure: onFailure)
    }
}
