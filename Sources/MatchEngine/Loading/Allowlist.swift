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

    /// Whether its verdict needs nothing but the bytes (no `paths`, no `commits`): the matcher
    /// decides it; any other goes to the filter stage after it (`DeferredChecks`).
    public var decidedByBytes: Bool { paths.isEmpty && commits.isEmpty }

    /// Whether it reads the bytes it judges (the secret, the match or the line), not only
    /// the place.
    public var testsContent: Bool { !regexes.isEmpty || !stopwords.isEmpty }

    /// Whether it may judge a finding of `rule`: a repository's content checks never judge a
    /// trusted rule's finding (see `fromRepository`).
    public func mayJudge(_ rule: Rule) -> Bool { !(fromRepository && testsContent && !rule.fromRepository) }
}

/// What an allowlist's byte checks read. Byte views into the scanned buffer: nothing is copied.
public struct AllowlistSubject {
    public var secret: UnsafeRawBufferPointer
    public var match: UnsafeRawBufferPointer
    public var line: UnsafeRawBufferPointer

    public init(secret: UnsafeRawBufferPointer, match: UnsafeRawBufferPointer, line: UnsafeRawBufferPointer) {
        self.secret = secret
        self.match = match
        self.line = line
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
    /// The verdict of an allowlist `decidedByBytes`. A pattern that gives up makes it
    /// `failed`, whatever the other checks say: the caller reports the finding and the failure.
    func byteVerdict(_ subject: AllowlistSubject, scratch: MatchScratch) -> AllowlistVerdict {
        switch byteChecks(subject, scratch: scratch) {
        case .failure(let failure): return .failed(failure.message)
        case .success(let result):
            let allowed: Bool
            switch condition {
            case .or: allowed = result.passes > 0
            case .and: allowed = result.checks > 0 && result.passes == result.checks
            }
            return allowed ? .allows : .doesNotAllow
        }
    }
}

/// A pattern's answer for one text: yes, no, or it could not tell (a PCRE2 limit).
public enum PatternTest: Equatable {
    case yes, no
    case failed(String)
}

extension Regex {
    public func test(_ text: String, scratch: MatchScratch) -> PatternTest {
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
    public func matches(_ text: String, scratch: MatchScratch) -> Bool { test(text, scratch: scratch) == .yes }
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
