import Foundation
import GitHistory
import ScanCore
import ScanEngine
import ScanRules

/// `keyshape staged [REPO]`: what the next commit would add (the pre-commit hook's job).
enum StagedCommand {
    static func run(_ inv: Invocation) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv)
        let (ruleSet, options) = try GitCommandSupport.prepare(inv, repo: repo)
        let scanner = StagedScanner(ruleSet: ruleSet, options: options)
        let outcome: (result: ScanResult, notes: [String])
        do { outcome = try scanner.scan(repository: repo) } catch { throw GitCommandSupport.describe(error) }
        for note in outcome.notes { Terminal.err("keyshape: note: \(note)\n") }
        return try Report.deliver(outcome.result, inv)
    }
}
