import FileInputs
import ScanCore
import ScanRules

extension FileScanner {
    /// gitleaks' path-only rules (`path`, no `regex`, such as a rule for `.p12` files): a file
    /// whose path one matches is reported as a whole, whatever its bytes and whether or not
    /// they can be read (an unreadable key store is still a key store in the tree).
    ///
    /// The finding is `kind: file` with no line or column; its byte span is the whole file
    /// (offset 0, the file's size). Its secretHash is the keyed hash of the path's bytes (no
    /// byte of the file is a "secret" the rule isolated, and hashing gigabytes to name a file
    /// buys nothing), so the fingerprint, made as for every finding from rule, path and
    /// secretHash, stays the same while the file stays at its path.
    func reportPathOnlyRules(_ entry: FileEntry) {
        let set = scanner.matcher.ruleSet
        guard !set.pathOnlyRules.isEmpty else { return }
        let matched = set.pathOnlyMatches(entry.displayPath, scratch: set.makeScratch(), onFailure: { failure in
            let id = self.scanner.rules[failure.ruleIndex].id
            self.issues.append(ScanIssue(path: entry.displayPath, message: failure.describe(ruleId: id, unit: "file")))
        })
        guard !matched.isEmpty else { return }
        let secretHash = entry.pathBytes.withUnsafeBytes { scanner.secretHash($0) }
        for (index, allowlisted) in matched {
            let rule = scanner.rules[index]
            var location = Location(kind: .file, path: entry.displayPath, byteOffset: 0, byteLength: entry.size)
            location.line = nil
            let fingerprint = SecretHasher.fingerprint(rule: rule.id, pathBytes: entry.pathBytes, section: nil, secretHash: secretHash)
            let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: secretHash, location: location) }
            if allowlisted { suppressed.add(.allowlist, finding); continue }
            if options.baseline.contains(fingerprint) { suppressed.add(.baseline, finding); continue }
            findings.append(finding())
        }
    }
}
