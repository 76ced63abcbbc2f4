/// gitleaks' composite rules: a rule with `[[rules.required]]` reports a match only when each
/// required rule also matches in the same buffer, near enough; a `skipReport` rule serves only
/// as such a component and reports nothing itself.
///
/// Applied to one buffer's matches at once, after every rule ran. Distances are gitleaks':
/// lines between the two secrets' first lines, columns between their first columns (bytes
/// from the line's start, as gitleaks counts them), each at most the bound given; no bound
/// means anywhere in the buffer. A component an allowlist allows does not count, as a finding
/// an allowlist allows is no finding in gitleaks. A file scanned in chunks (over 8 MiB) is
/// one buffer per chunk, as gitleaks' fragments are.
struct CompositeRules: Sendable {
    /// Per rule index: its requirements as (rule indexes with that id, bounds).
    let requirements: [Int: [(rules: [Int], required: RequiredRule)]]
    let skipReport: Set<Int>

    /// nil when no rule is composite or skipReport, so the matcher takes its usual path.
    init?(_ rules: [Rule]) {
        // By index, reading only the two fields first: `enumerated()` copied every Rule twice
        // (a retain and release per field), and the pack has no composite rule, so the map
        // of ids is built only when one is there.
        guard rules.indices.contains(where: { rules[$0].skipReport || !rules[$0].required.isEmpty }) else { return nil }
        var byId: [String: [Int]] = [:]
        for i in rules.indices { byId[rules[i].id, default: []].append(i) }
        var requirements: [Int: [(rules: [Int], required: RequiredRule)]] = [:]
        var skip = Set<Int>()
        for i in rules.indices {
            if rules[i].skipReport { skip.insert(i) }
            // A required id that names no loaded rule can never be satisfied: the rule then
            // reports nothing, as in gitleaks (the CLI warns about it when loading).
            if !rules[i].required.isEmpty { requirements[i] = rules[i].required.map { (byId[$0.id] ?? [], $0) } }
        }
        if requirements.isEmpty && skip.isEmpty { return nil }
        self.requirements = requirements
        skipReport = skip
    }

    /// The matches to report, in the order given.
    func resolve(_ matches: [RuleMatch], in buffer: UnsafeRawBufferPointer) -> [RuleMatch] {
        let positions = CompositeRules.positions(matches.map(\.secret.lowerBound), in: buffer)
        var byRule: [Int: [Int]] = [:]
        for (k, m) in matches.enumerated() where !m.allowlisted { byRule[m.ruleIndex, default: []].append(k) }
        var kept: [RuleMatch] = []
        for (k, m) in matches.enumerated() {
            if skipReport.contains(m.ruleIndex) { continue }
            if let needs = requirements[m.ruleIndex] {
                let here = positions[k]
                let satisfied = needs.allSatisfy { need in
                    need.rules.contains { r in
                        (byRule[r] ?? []).contains { other in
                            let there = positions[other]
                            if let n = need.required.withinLines, abs(there.line - here.line) > n { return false }
                            if let n = need.required.withinColumns, abs(there.column - here.column) > n { return false }
                            return true
                        }
                    }
                }
                if !satisfied { continue }
            }
            kept.append(m)
        }
        return kept
    }

    /// Line (0-based) and byte column (0-based) of each offset.
    static func positions(_ offsets: [Int], in buffer: UnsafeRawBufferPointer) -> [(line: Int, column: Int)] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = [(line: Int, column: Int)](repeating: (0, 0), count: offsets.count)
        var line = 0, lineStart = 0, at = 0
        for k in order {
            let target = min(offsets[k], buffer.count)
            while at < target {
                if buffer[at] == 0x0A { line += 1; lineStart = at + 1 }
                at += 1
            }
            result[k] = (line, target - lineStart)
        }
        return result
    }
}
