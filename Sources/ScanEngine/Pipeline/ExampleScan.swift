import ScanCore
import ScanRules

/// `keyshape rules check` through the same per-buffer pipeline as every scan: each
/// example is one whole buffer (sniffed, transformed, matched, inline markers read on its
/// lines), so what the check says of a rule is what a scan does with it.
public enum ExampleScan {
    /// For `RuleChecker.check(files:requireExamples:runner:)`.
    public static func runner(for ruleSet: RuleSet) -> (String) -> [ExampleMatch] {
        let pipeline = BufferPipeline(ruleSet: ruleSet, options: ScanOptions(jobs: 1))
        return { text in
            var bytes = Array(text.utf8)
            var found: [ExampleMatch] = []
            bytes.withUnsafeMutableBytes { buffer in
                // Unhashed: the check needs spans only, and the secret hash is slow on purpose.
                pipeline.scan(whole: UnsafeRawBufferPointer(buffer), hashSecrets: false, onFinding: { f in
                    found.append(ExampleMatch(ruleIndex: f.ruleIndex, secret: f.range,
                                              inlineAllowed: f.suppression == .inline, allowlisted: f.suppression == .allowlist))
                }, onFailure: { _ in })
            }
            return found
        }
    }
}
