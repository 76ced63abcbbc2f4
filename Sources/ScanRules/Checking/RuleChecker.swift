import CPCRE2

/// One thing `keyshape rules check` found wrong with a rule.
public struct RuleCheckProblem: Sendable, CustomStringConvertible {
    public var rule: String
    public var position: SourcePosition
    public var message: String

    public var description: String { "\(position): \(rule): \(message)" }
}

/// Runs the rules' own examples through the real engine: the whole pack, keywords,
/// entropy and allowlists included, exactly as a scan would.
public enum RuleChecker {
    public static let idPattern = try! Regex("^[a-z0-9]+(?:-[a-z0-9]+)*\\z")
    public static let openMarker = "«", closeMarker = "»"

    /// - Parameter requireExamples: fail rules with fewer than two examples and two negative examples.
    public static func check(files: [RuleFile], requireExamples: Bool) -> [RuleCheckProblem] {
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
                }
            }
        }
        let (set, _) = RuleSet.combining(files)
        let matcher = Matcher(ruleSet: set)
        for (index, rule) in set.rules.enumerated() {
            for (n, example) in rule.examples.enumerated() {
                guard let (text, marked) = parseExample(example) else {
                    problems.append(.init(rule: rule.id, position: rule.source, message: "example \(n + 1): mark the secret with exactly one «…»"))
                    continue
                }
                let matches = run(matcher, text)
                if !matches.contains(where: { $0.ruleIndex == index && $0.secret == marked }) {
                    let got = matches.filter { $0.ruleIndex == index }.map { "\($0.secret)" }.joined(separator: ", ")
                    problems.append(.init(rule: rule.id, position: rule.source,
                                          message: "example \(n + 1) not found at bytes \(marked)" + (got.isEmpty ? "" : " (found at \(got))")))
                }
            }
            for (n, negative) in rule.negativeExamples.enumerated() {
                for m in run(matcher, negative) {
                    problems.append(.init(rule: rule.id, position: rule.source,
                                          message: "negative example \(n + 1) is reported by `\(set.rules[m.ruleIndex].id)`"))
                }
            }
        }
        return problems
    }

    static func run(_ matcher: Matcher, _ text: String) -> [RuleMatch] {
        var bytes = Array(text.utf8)
        var found: [RuleMatch] = []
        bytes.withUnsafeMutableBytes { buf in
            matcher.scan(UnsafeRawBufferPointer(buf), context: MatchContext(), onMatch: { found.append($0) }, onFailure: { _ in })
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
