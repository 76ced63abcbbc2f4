/// gitleaks' allowlist: a finding is dropped when the allowlist's checks say so.
/// With condition OR (the default) any one check that is set and passes allows it;
/// with AND every check that is set must pass.
public struct Allowlist: Sendable {
    public enum Target: String, Sendable { case secret, match, line }
    public enum Condition: String, Sendable { case or = "OR", and = "AND" }

    public var description: String?
    public var regexes: [Regex]
    public var regexTarget: Target
    public var paths: [Regex]
    /// Lowercased; the secret containing one (case-insensitively) allows it.
    public var stopwords: [[UInt8]]
    public var commits: [String]
    public var condition: Condition
    /// For global allowlists: only these rule ids (empty: every rule).
    public var targetRules: [String]
    /// From the scanned tree's config, which may be hostile. Such an allowlist may suppress by
    /// path or commit anywhere (counted), but its checks of content (`regexes`, `stopwords`)
    /// apply to the tree's own rules only: run against a builtin rule's secret they would
    /// answer, one suppression at a time, whether the value matches a pattern the tree chose.
    public var fromRepository = false

    public init(description: String? = nil, regexes: [Regex] = [], regexTarget: Target = .secret, paths: [Regex] = [],
                stopwords: [String] = [], commits: [String] = [], condition: Condition = .or, targetRules: [String] = []) {
        self.description = description
        self.regexes = regexes
        self.regexTarget = regexTarget
        self.paths = paths
        self.stopwords = stopwords.map { Array($0.lowercased().utf8) }
        self.commits = commits
        self.condition = condition
        self.targetRules = targetRules
    }

    public var isEmpty: Bool { regexes.isEmpty && paths.isEmpty && stopwords.isEmpty && commits.isEmpty }

    /// Whether it reads the bytes it judges (the secret, the match or the line), not only
    /// the place.
    public var testsContent: Bool { !regexes.isEmpty || !stopwords.isEmpty }

    /// Whether it may judge a finding of `rule`: a repository's content checks never judge a
    /// trusted rule's finding (see `fromRepository`).
    public func mayJudge(_ rule: Rule) -> Bool { !(fromRepository && testsContent && !rule.fromRepository) }
}

/// What an allowlist is checked against. Byte views into the scanned buffer: nothing is copied.
public struct AllowlistSubject {
    public var secret: UnsafeRawBufferPointer
    public var match: UnsafeRawBufferPointer
    public var line: UnsafeRawBufferPointer
    public var path: String?
    public var commit: String?

    public init(secret: UnsafeRawBufferPointer, match: UnsafeRawBufferPointer, line: UnsafeRawBufferPointer, path: String?, commit: String?) {
        self.secret = secret
        self.match = match
        self.line = line
        self.path = path
        self.commit = commit
    }
}

/// What checking one allowlist against one finding gave.
public enum AllowlistVerdict: Equatable, Sendable {
    case allows
    case doesNotAllow
    /// A pattern could not finish (PCRE2's match or depth limit): nobody knows whether it
    /// allows the finding, so the finding is reported (fail closed) and the failure is an
    /// error entry.
    case failed(String)
}

extension Allowlist {
    /// A pattern that gives up makes the verdict `failed`, whatever the other checks say:
    /// the caller reports the finding and the failure.
    func verdict(_ subject: AllowlistSubject, scratch: MatchScratch) -> AllowlistVerdict {
        if isEmpty { return .doesNotAllow }
        var checks: [Bool] = []
        if !commits.isEmpty {
            checks.append(subject.commit.map { c in commits.contains { !$0.isEmpty && c.hasPrefix($0) } } ?? false)
        }
        if !paths.isEmpty {
            if let p = subject.path {
                var any = false
                for regex in paths {
                    switch regex.test(p, scratch: scratch) {
                    case .yes: any = true
                    case .no: break
                    case .failed(let message): return .failed(message)
                    }
                    if any { break }
                }
                checks.append(any)
            } else {
                checks.append(false)
            }
        }
        if !regexes.isEmpty {
            let target: UnsafeRawBufferPointer
            switch regexTarget {
            case .secret: target = subject.secret
            case .match: target = subject.match
            case .line: target = subject.line
            }
            var any = false
            for regex in regexes {
                switch regex.firstMatch(in: target, from: 0, scratch: scratch) {
                case .match: any = true
                case .noMatch: break
                case .failure(_, let message): return .failed(message)
                }
                if any { break }
            }
            checks.append(any)
        }
        if !stopwords.isEmpty {
            checks.append(stopwords.contains { ByteSearch.containsCaseInsensitive(subject.secret, $0) })
        }
        let allowed: Bool
        switch condition {
        case .or: allowed = checks.contains(true)
        case .and: allowed = !checks.isEmpty && !checks.contains(false)
        }
        return allowed ? .allows : .doesNotAllow
    }
}

/// A pattern's answer for one text: yes, no, or it could not tell (a PCRE2 limit).
enum PatternTest: Equatable {
    case yes, no
    case failed(String)
}

extension Regex {
    func test(_ text: String, scratch: MatchScratch) -> PatternTest {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buf in
            switch firstMatch(in: UnsafeRawBufferPointer(buf), from: 0, scratch: scratch) {
            case .match: return .yes
            case .noMatch: return .no
            case .failure(_, let message): return .failed(message)
            }
        }
    }

    /// Whether the pattern matches `text`; false when it could not tell.
    func matches(_ text: String, scratch: MatchScratch) -> Bool { test(text, scratch: scratch) == .yes }
}

enum ByteSearch {
    /// ASCII-case-insensitive substring test; `needle` is already lowercase.
    static func containsCaseInsensitive(_ hay: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if hay.count < needle.count { return false }
        let last = hay.count - needle.count
        var i = 0
        while i <= last {
            var j = 0
            while j < needle.count, KeywordIndex.fold(hay[i + j]) == needle[j] { j += 1 }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }
}
