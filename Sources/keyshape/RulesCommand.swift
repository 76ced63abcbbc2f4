import Foundation
import Application
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine

/// `keyshape rules list` and `keyshape rules check`.
enum RulesCommand {
    static func list(_ rules: RuleFlags, _ report: ReportFlags, _ context: RunContext) throws -> Int32 {
        let loaded = try RuleSources.load(rules)
        for w in loaded.warnings { context.warn(w) }
        let selection = try RuleSelection(rules, loaded: RuleSet.ruleIds(loaded.files))
        let (set, _) = RuleSet.combining(loaded.files, keeping: selection.keeps)
        let listing = set.rules.map { r in
            RuleListing(id: r.id, description: r.description, tags: r.tags, keywords: r.keywords, regex: r.regex.pattern)
        }
        // --format only lets through formats that have a rule-list renderer; this is the same
        // error should one get here another way.
        guard let render = report.format.renderRules else { throw FlagTable.noRuleList(report.format) }
        let text = render(listing)
        if let output = report.output {
            guard Report.write(text, to: output, context) else { return 2 }
        } else {
            Terminal.out(text)
        }
        return 0
    }

    static func check(_ rules: RuleFlags, _ context: RunContext) throws -> Int32 {
        let loaded = try RuleSources.load(rules, noneAllowed: true)
        for w in loaded.warnings { context.warn(w) }
        // Only the selected rules are checked, and negative examples are held against those.
        let selection = try RuleSelection(rules, loaded: RuleSet.ruleIds(loaded.files))
        var files = loaded.files
        for i in files.indices { files[i].rules.removeAll { !selection.keeps($0.id) } }
        let problems = RuleChecker.check(files: files, requireExamples: rules.requireExamples, runner: ExampleScan.runner)
        let ruleCount = files.reduce(0) { $0 + $1.rules.count }
        let examples = files.reduce(0) { $0 + $1.rules.reduce(0) { $0 + $1.examples.count + $1.negativeExamples.count } }
        for p in problems { Terminal.out(DisplayText.escaped("\(p)") + "\n") }
        if !rules.noBuiltin && examples == 0 {
            Terminal.err("keyshape: note: the builtin rules carry no examples in the binary; run `keyshape rules check --no-builtin-rules --rules Rules/` in a keyshape checkout to run them\n")
        }
        Terminal.out("\(ruleCount) rules, \(examples) examples checked, \(problems.count) problem\(problems.count == 1 ? "" : "s")\n")
        return problems.isEmpty ? 0 : 1
    }
}
