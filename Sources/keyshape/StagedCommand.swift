import Foundation
import GitHistory
import ScanCore
import ScanEngine
import ScanRules

/// `keyshape staged [REPO]`: what the next commit would add (the pre-commit hook's job).
enum StagedCommand {
    static func run(_ inv: Invocation) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv)
        var inv = inv
        HookCommand.adoptBaseline(&inv, repo: repo)
        // Read git (a few processes) while the rules compile: the hook must feel instant.
        let (ruleSet, options, opened) = try GitCommandSupport.prepare(inv, repo: repo, meanwhile: {
            try StagedScanner.read(repository: repo)
        })
        let input: StagedScanner.Input
        do { input = try opened.get() } catch { throw GitCommandSupport.describe(error) }
        let outcome = StagedScanner(ruleSet: ruleSet, options: options).scan(input)
        let clean = outcome.result.findings.isEmpty && outcome.result.issues.isEmpty
        // As a hook, a clean commit prints nothing at all.
        if !(inv.hookMode && clean) {
            for note in outcome.notes { Terminal.err("keyshape: note: \(note)\n") }
        }
        let status = try Report.deliver(outcome.result, inv, options, roots: .repository(repo))
        if inv.hookMode && status != 0 { Terminal.err(HookCommand.stopLine(outcome.result, push: false) + "\n") }
        return status
    }
}
