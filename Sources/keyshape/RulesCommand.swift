import Foundation
import ScanCore
import ScanRules

/// `keyshape rules list` and `keyshape rules check`.
enum RulesCommand {
    static func list(_ inv: Invocation) throws -> Int32 {
        let loaded = try RuleSources.load(inv)
        for w in loaded.warnings { Terminal.err("keyshape: warning: \(w)\n") }
        let selection = try RuleSelection(inv, loaded: RuleSet.ruleIds(loaded.files))
        let (set, _) = RuleSet.combining(loaded.files, keeping: selection.keeps)
        switch inv.format {
        case .json, .jsonl, .sarif:
            var items: [[String: Any]] = []
            for r in set.rules {
                items.append(["id": r.id, "description": r.description, "tags": r.tags, "keywords": r.keywords, "regex": r.regex.pattern])
            }
            let data = try JSONSerialization.data(withJSONObject: ["rules": items, "count": items.count], options: [.prettyPrinted, .sortedKeys])
            Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
        case .text:
            // Ids, descriptions and tags come from rules files, which may be a scanned
            // repository's own: escaped like every other name in text output.
            let shown = set.rules.map { r in
                (id: DisplayText.escaped(r.id), description: DisplayText.escaped(r.description),
                 tags: r.tags.map(DisplayText.escaped))
            }
            let width = min(40, shown.map(\.id.count).max() ?? 0)
            for r in shown {
                let pad = String(repeating: " ", count: max(1, width + 2 - r.id.count))
                let tags = r.tags.isEmpty ? "" : "  [" + r.tags.joined(separator: ", ") + "]"
                Terminal.out(r.id + pad + r.description + tags + "\n")
            }
            Terminal.out("\(set.rules.count) rules\n")
        }
        return 0
    }

    static func check(_ inv: Invocation) throws -> Int32 {
        let loaded = try RuleSources.load(inv)
        for w in loaded.warnings { Terminal.err("keyshape: warning: \(w)\n") }
        // Only the selected rules are checked, and negative examples are held against those.
        let selection = try RuleSelection(inv, loaded: RuleSet.ruleIds(loaded.files))
        var files = loaded.files
        for i in files.indices { files[i].rules.removeAll { !selection.keeps($0.id) } }
        let problems = RuleChecker.check(files: files, requireExamples: inv.requireExamples)
        let rules = files.reduce(0) { $0 + $1.rules.count }
        let examples = files.reduce(0) { $0 + $1.rules.reduce(0) { $0 + $1.examples.count + $1.negativeExamples.count } }
        for p in problems { Terminal.out(DisplayText.escaped("\(p)") + "\n") }
        if !inv.noBuiltinRules && examples == 0 {
            Terminal.err("keyshape: note: the builtin rules carry no examples in the binary; run `keyshape rules check --no-builtin-rules --rules Rules/` in a keyshape checkout to run them\n")
        }
        Terminal.out("\(rules) rules, \(examples) examples checked, \(problems.count) problem\(problems.count == 1 ? "" : "s")\n")
        return problems.isEmpty ? 0 : 1
    }
}
