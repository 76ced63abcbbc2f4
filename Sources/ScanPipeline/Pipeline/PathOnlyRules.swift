import ScanCore
import MatchEngine

/// The scanner's path stage for gitleaks' path-only rules (`path`, no `regex`, such as a
/// rule for `.p12` files): a file whose path one matches is reported as a whole, whatever its
/// bytes and whether or not they can be read (an unreadable key store is still a key store in
/// the tree). One place for every input that has a path: `scan` for each file, `staged` and
/// `history` where a path first appears (the path is what was found, so it is new where the
/// path is new: a staged file added or renamed there, a commit that adds the path).
///
/// The finding has no line or column; its byte span is the whole file when its size is known
/// (`scan`), else empty. Its secretHash is the keyed hash of the path's raw bytes (no byte of
/// the file is a "secret" the rule isolated, and hashing gigabytes to name a file buys
/// nothing), and the fingerprint is the one of every finding (`FindingBuilder`: rule, path,
/// secretHash), so a file at one path has one fingerprint under `scan`, `staged` and `history`.
enum PathOnlyRules {
    /// Builds the findings of the path-only rules that match `provenance`'s path; the
    /// suppressed ones are counted by `builder`.
    /// - Parameters:
    ///   - hash: the run's keyed secret hash.
    ///   - commit: for rule and global allowlists that name commits (history).
    static func findings(_ ruleSet: RuleSet, provenance: Provenance, size: Int = 0, commit: String? = nil,
                         scratch: MatchScratch, hash: (UnsafeRawBufferPointer) -> String,
                         builder: inout FindingBuilder, onFailure: (RuleFailure) -> Void) -> [Finding] {
        guard !ruleSet.pathOnlyRules.isEmpty, let pathBytes = provenance.rootPathBytes else { return [] }
        let path = Location.display(pathBytes)
        let matched = ruleSet.pathOnlyMatches(path, commit: commit, scratch: scratch, onFailure: onFailure)
        guard !matched.isEmpty else { return [] }
        let secretHash = pathBytes.withUnsafeBytes { hash($0) }
        var out: [Finding] = []
        for (index, allowlisted) in matched {
            let location = Location(provenance, byteOffset: 0, byteLength: size)
            if let finding = builder.build(rule: ruleSet.rules[index], location: location, secretHash: secretHash,
                                           suppression: allowlisted ? .allowlist : nil) {
                out.append(finding)
            }
        }
        return out
    }
}
