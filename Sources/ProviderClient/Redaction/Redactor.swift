import Foundation
import MatchEngine

/// Finds key-shaped substrings in free text (error strings, URLs, bodies) and replaces
/// them with `<redacted>`. Uses the scanner's rules when the app passes a `RuleSet` (the
/// same rules `keyshape scan` uses, so what the scanner would flag never gets written),
/// plus the library's small built-in set, which also works alone.
///
/// Fails closed: when a rule cannot finish on some text (PCRE2 match limit), the whole
/// text is replaced.
public final class Redactor: @unchecked Sendable {
    public static let placeholder = "<redacted>"
    static let uncheckedPlaceholder = "<redacted: text could not be checked>"

    /// Built-in rules only.
    public static let fallbackOnly = Redactor(ruleSet: nil)

    private let lock = NSLock()
    // A `Matcher` owns PCRE2 match data and is not thread-safe; one per rule set, used
    // under the lock. Redaction is on error and logging paths, not the hot path.
    private let matchers: [Matcher]

    public init(ruleSet: RuleSet?) {
        // Redaction errs towards hiding: a key-shaped value is masked even when it looks like
        // a placeholder, which a scan would not report (`MatchMode.redaction`).
        var matchers = [Matcher(ruleSet: FallbackRules.ruleSet, mode: .redaction)]
        if let ruleSet { matchers.append(Matcher(ruleSet: ruleSet, mode: .redaction)) }
        self.matchers = matchers
    }

    /// Loads rule files (`Rules/*.toml` or a gitleaks config) for redaction. Rules that do
    /// not load are reported by the thrown error; nothing is printed.
    public convenience init(ruleFiles urls: [URL]) throws {
        var files: [RuleFile] = []
        for url in urls {
            let text = try String(contentsOf: url, encoding: .utf8)
            files.append(try RuleLoader.load(text: text, file: url.lastPathComponent))
        }
        self.init(ruleSet: RuleSet.combining(files).0)
    }

    public func redact(_ text: String) -> RedactedText {
        RedactedText(checked: scrub(text))
    }

    /// Whether `text` contains anything key-shaped.
    public func containsCredential(_ text: String) -> Bool {
        switch ranges(in: text) {
        case .failed: return true
        case .found(let ranges): return !ranges.isEmpty
        }
    }

    func scrub(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        switch ranges(in: text) {
        case .failed:
            return Self.uncheckedPlaceholder
        case .found(let ranges):
            guard !ranges.isEmpty else { return text }
            var bytes = Array(text.utf8)
            for range in ranges.reversed() {
                bytes.replaceSubrange(range, with: Self.placeholder.utf8)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private enum Scan {
        case found([Range<Int>])
        case failed
    }

    /// Secret byte ranges, merged and sorted.
    private func ranges(in text: String) -> Scan {
        var found: [Range<Int>] = []
        var failed = false
        var utf8 = Array(text.utf8)
        lock.lock()
        utf8.withUnsafeMutableBytes { raw in
            let buffer = UnsafeRawBufferPointer(raw)
            for matcher in matchers {
                matcher.scan(buffer, onMatch: { found.append($0.secret) },
                             onFailure: { _ in failed = true })
            }
        }
        lock.unlock()
        if failed { return .failed }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in found where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return .found(merged)
    }
}
