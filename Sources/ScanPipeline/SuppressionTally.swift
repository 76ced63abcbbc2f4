import ScanCore

/// What one scanner suppressed: counted always, kept only when the run asked for it. Every
/// place that used to drop an allowlisted, inline-allowed or baselined finding hands it here.
struct SuppressionTally {
    let keep: Bool
    var counts = SuppressionCounts()
    var kept: [SuppressedFinding] = []

    init(keep: Bool) { self.keep = keep }

    /// - Parameter finding: built only when kept (it needs the real secret hash, which a
    ///   counted-only finding does not have).
    mutating func add(_ kind: Suppression, _ finding: () -> Finding) {
        counts[kind] += 1
        if keep { kept.append(SuppressedFinding(finding(), kind)) }
    }
}
