import ScanCore
import MatchEngine

/// `keyshape rules check` through the same per-buffer pipeline as every scan: each
/// example is one whole buffer (sniffed, transformed, matched, inline markers read on its
/// lines), so what the check says of a rule is what a scan does with it.
public enum ExampleScan {
    /// For `RuleChecker.check(files:requireExamples:runner:)`.
    public static func runner(for ruleSet: RuleSet) -> (String) -> [ExampleMatch] {
        // Each rule answers for its own examples (see `MatchMode.ruleExamples`).
        let pipeline = BufferPipeline(ruleSet: ruleSet, options: ScanOptions(jobs: 1), mode: .ruleExamples)
        let scratch = ruleSet.makeScratch()
        return { text in
            var bytes = Array(text.utf8)
            var found: [ExampleMatch] = []
            bytes.withUnsafeMutableBytes { buffer in
                // Unhashed: the check needs spans only, and the secret hash is slow on purpose.
                pipeline.scan(whole: UnsafeRawBufferPointer(buffer), hashSecrets: false, onFinding: { f in
                    var allowlisted = f.suppression == .allowlist
                    if let pending = f.pending {
                        // An example has no path: path filters pass, path allowlists do not
                        // allow (as the matcher always checked examples).
                        switch ruleSet.settle(pending, ruleIndex: f.ruleIndex, path: nil, commit: nil, scratch: scratch, onFailure: { _ in }) {
                        case .drop: return
                        case .allowlisted: allowlisted = true
                        case .report: break
                        }
                    }
                    found.append(ExampleMatch(ruleIndex: f.ruleIndex, secret: f.range,
                                              inlineAllowed: f.suppression == .inline, allowlisted: allowlisted))
                }, onFailure: { _ in })
            }
            return found
        }
    }
}
