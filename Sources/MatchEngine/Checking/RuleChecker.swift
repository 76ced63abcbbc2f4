import CPCRE2

/// One thing `keyshape rules check` found wrong with a rule.
public struct RuleCheckProblem: Sendable, CustomStringConvertible {
    public var rule: String
    public var position: SourcePosition
    public var message: String

    public var description: String { "\(position): \(rule): \(message)" }
}

/// What running one example gave: a rule's secret span, and whether the scan would have
/// reported it (an inline `keyshape:allow` on its line, or a global allowlist, keeps it
/// out of a report).
public struct ExampleMatch: Sendable, Equatable {
    public var ruleIndex: Int
    public var secret: Range<Int>
    public var inlineAllowed: Bool
    public var allowlisted: Bool

    public init(ruleIndex: Int, secret: Range<Int>, inlineAllowed: Bool = false, allowlisted: Bool = false) {
        self.ruleIndex = ruleIndex
        self.secret = secret
        self.inlineAllowed = inlineAllowed
        self.allowlisted = allowlisted
    }
}

/// Runs the rules' own examples through the real engine: the whole pack, keywords,
/// entropy and allowlists included, exactly as a scan would.
///
/// `keyshape rules check` hands in the scanner's per-buffer pipeline as `runner`
/// (ScanPipeline's `ExampleScan`), so examples also meet inline markers and every transform
/// a scan applies; the default runs the matcher alone. What is checked:
/// - an example passes when the scan reports the marked span: one whose line carries an
///   inline `keyshape:allow` fails (a scan would not report it, so it shows nothing);
/// - a negative example fails when any rule matches it, even where an inline marker would
///   hide the match: the marker is the scanned project's choice, not the rule's, and an
///   auditor's `--ignore-inline-allow` would see it. A global allowlist of the rule pack
///   is part of the rules, so what it drops passes.
public enum RuleChecker {
    public static let idPattern = try! Regex("^[a-z0-9]+(?:-[a-z0-9]+)*\\z")
    public static let openMarker = "«", closeMarker = "»"

    /// - Parameter requireExamples: the builtin pack's bar: fail rules with fewer than two
    ///   examples and two negative examples, rules with a keyword that is a common word or
    ///   part of one (`CommonWords`), which would make the keyword prefilter select nothing,
    ///   and rules with a keyword too short or made of punctuation only (`KeywordBar`) that the
    ///   rule does not vouch for in `distinctiveKeywords`.
    /// - Parameter runner: makes, for the combined rule set, the function that runs one
    ///   example (nil: the matcher alone).
    public static func check(files: [RuleFile], requireExamples: Bool,
                             runner: ((RuleSet) -> (String) -> [ExampleMatch])? = nil) -> [RuleCheckProblem] {
        var problems: [RuleCheckProblem] = []
        var firstSeen: [String: SourcePosition] = [:]
        let jitAvailable = RuleChecker.jitAvailable
        for file in files {
            for rule in file.rules {
                if let earlier = firstSeen[rule.id] {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "duplicate id (first at \(earlier))"))
                } else {
                    firstSeen[rule.id] = rule.source
                }
                if !idPattern.matches(rule.id) {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "id must be lowercase words joined by '-'"))
                }
                if let error = rule.regex.error {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "regex does not compile: \(error)"))
                } else if jitAvailable && !rule.regex.isJIT {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "regex does not JIT-compile"))
                }
                if rule.keywords.isEmpty {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "no keywords: the rule would run on every buffer"))
                }
                if requireExamples {
                    if rule.examples.count < 2 { problems.append(.init(rule: rule.id, position: rule.source, message: "fewer than 2 examples")) }
                    if rule.negativeExamples.count < 2 { problems.append(.init(rule: rule.id, position: rule.source, message: "fewer than 2 negative examples")) }
                    for keyword in rule.keywords {
                        if let why = KeywordBar.shortfall(keyword), !rule.distinctiveKeywords.contains(keyword.lowercased()) {
                            problems.append(.init(rule: rule.id, position: rule.source,
                                                  message: "keyword `\(keyword.lowercased())` \(why): make it longer, or list it in `distinctiveKeywords` if it is the token's own distinctive prefix"))
                        }
                        // Only letters can be part of a word, so what is printed is a lower-case word.
                        guard let word = CommonWords.word(containing: keyword) else { continue }
                        let part = keyword.lowercased() == word ? "" : "part of "
                        problems.append(.init(rule: rule.id, position: rule.source,
                                              message: "keyword `\(keyword.lowercased())` is \(part)the common word `\(word)`: the rule would wake on most files"))
                    }
                    for vouched in rule.distinctiveKeywords where !rule.keywords.contains(vouched) {
                        problems.append(.init(rule: rule.id, position: rule.source,
                                              message: "`distinctiveKeywords` lists `\(vouched)`, which is not one of the rule's keywords"))
                    }
                }
            }
        }
        let (set, _) = RuleSet.combining(files)
        // Each rule answers for its own examples: a generic rule's example that a provider
        // rule also finds must still be found by the generic rule (`MatchMode.ruleCheck`).
        let matcher = Matcher(ruleSet: set, mode: .ruleCheck)
        let run: (String) -> [ExampleMatch] = runner?(set) ?? { RuleChecker.run(matcher, $0) }
        for (index, rule) in set.rules.enumerated() {
            for (n, example) in rule.examples.enumerated() {
                guard let (text, marked) = parseExample(example) else {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "example \(n + 1): mark the secret with exactly one «…»"))
                    continue
                }
                let matches = run(text).filter { !$0.allowlisted }
                if matches.contains(where: { $0.ruleIndex == index && $0.secret == marked && $0.inlineAllowed }) {
                    problems.append(.init(rule: rule.id, position: rule.source,
                                          message: "example \(n + 1) is on a line with an inline allow marker; a scan would not report it"))
                } else if !matches.contains(where: { $0.ruleIndex == index && $0.secret == marked }) {
                    let got = matches.filter { $0.ruleIndex == index }.map { "\($0.secret)" }.joined(separator: ", ")
                    let why = got.isEmpty ? dropReason(rule, text, marked).map { ": " + $0 } ?? "" : ""
                    problems.append(.init(rule: rule.id, position: rule.source,
                                          message: "example \(n + 1) not found at bytes \(marked)" + (got.isEmpty ? "" : " (found at \(got))") + why))
                }
            }
            for (n, negative) in rule.negativeExamples.enumerated() {
                for m in run(negative) where !m.allowlisted {
                    problems.append(.init(rule: rule.id, position: rule.source,
                                          message: "negative example \(n + 1) is reported by `\(set.rules[m.ruleIndex].id)`"))
                }
            }
        }
        return problems
    }

    /// Why the engine would drop the marked value whatever the regex matched: the rule's
    /// entropy gate, or the placeholder filter every rule passes its value through (which
    /// makes no finding, so not even `--include-suppressed` shows it). The reason only, never
    /// the value: the checker's output is read like a scan's.
    static func dropReason(_ rule: Rule, _ text: String, _ marked: Range<Int>) -> String? {
        let bytes = Array(text.utf8)
        guard marked.upperBound <= bytes.count, !marked.isEmpty else { return nil }
        return bytes.withUnsafeBytes { buffer -> String? in
            let secret = UnsafeRawBufferPointer(rebasing: buffer[marked])
            if let gate = rule.entropyGate(for: secret), Entropy.shannon(secret) <= gate {
                return "the value's entropy is not over the rule's gate (\((gate * 100).rounded() / 100))"
            }
            if let reason = Placeholder.reason(secret, prefixes: rule.keywords) {
                return "the value is dropped as a placeholder (\(reason.rawValue))"
            }
            return nil
        }
    }

    static func run(_ matcher: Matcher, _ text: String) -> [ExampleMatch] {
        var bytes = Array(text.utf8)
        var found: [ExampleMatch] = []
        bytes.withUnsafeMutableBytes { buf in
            matcher.scan(UnsafeRawBufferPointer(buf), onMatch: { found.append(ExampleMatch(ruleIndex: $0.ruleIndex, secret: $0.secret)) }, onFailure: { _ in })
        }
        return found
    }

    /// Removes the markers; returns the text and the marked byte range.
    public static func parseExample(_ example: String) -> (String, Range<Int>)? {
        guard let open = example.range(of: openMarker),
              let close = example.range(of: closeMarker, range: open.upperBound..<example.endIndex),
              example[close.upperBound...].range(of: openMarker) == nil,
              example[close.upperBound...].range(of: closeMarker) == nil,
              example[..<open.lowerBound].range(of: closeMarker) == nil
        else { return nil }
        let before = example[..<open.lowerBound]
        let secret = example[open.upperBound..<close.lowerBound]
        let after = example[close.upperBound...]
        let start = before.utf8.count
        return (String(before) + secret + after, start..<(start + secret.utf8.count))
    }

    public static var jitAvailable: Bool {
        var value: UInt32 = 0
        pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &value)
        return value != 0
    }
}
