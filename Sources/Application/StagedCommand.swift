import Foundation
import ScanCore
import ScanPipeline
import MatchEngine

/// `keyshape staged [REPO]`: what the next commit would add (the pre-commit hook's job).
public enum StagedCommand {
    public static func run(_ inv: Invocation, _ context: RunContext) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv.positionals, of: inv.command)
        var inv = inv
        HookCommand.adoptBaseline(&inv, repo: repo)
        // Read git (a few processes) while the rules compile: the hook must feel instant.
        let (ruleSet, options, opened) = try GitCommandSupport.prepare(inv, repo: repo, context: context, meanwhile: {
            try StagedScanner.read(repository: repo)
        })
        let input: StagedScanner.Input
        do { input = try opened.get() } catch { throw GitCommandSupport.describe(error) }
        let outcome = StagedScanner(ruleSet: ruleSet, options: options).scan(input)
        // The rules stay allocated until the process exits, which returns the memory at once:
        // freeing 555 rules one by one after the scan took 1.5% of a hook's run (perf record).
        _ = Unmanaged.passRetained(ruleSet)
        return try GitCommandSupport.deliver(outcome.result, notes: outcome.notes, inv.report, command: inv.command, options, repo: repo, push: false, context: context)
    }
}
