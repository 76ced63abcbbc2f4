import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import CommandLineFlags

/// What every scanning command does before it scans.
public enum ScanSetup {
    /// Rules, config and options as every scanning command (scan, history, staged, audit)
    /// takes them: flags first, then the config file found for `roots`, then defaults.
    ///
    /// With `--datastore DB` (scan, history, audit) the run is recorded as started here, and
    /// its recorder becomes `context.recorder`.
    public static func prepare(_ inv: Invocation, roots: [String], context: RunContext) throws -> (RuleSet, ScanOptions) {
        var rules = try RuleSources.load(inv.rules, configFile: inv.config.file)
        let config = try ConfigFile.load(explicit: inv.config.file, roots: roots, noConfig: inv.config.noConfig,
                                         gitleaksConfigGiven: rules.gitleaksConfig != nil,
                                         loadedRuleIds: Set(RuleSet.ruleIds(rules.files)))
        if var extra = config.rules {
            // The scanned tree's rules run where no trusted rule matched (`Rule.fromRepository`);
            // a `--config FILE`'s are the user's.
            for i in extra.rules.indices { extra.rules[i].fromRepository = config.origin == .repository }
            rules.files.append(extra)
        }
        for w in rules.warnings + config.warnings { context.warn(w) }
        let selection = try RuleSelection(inv.rules, loaded: RuleSet.ruleIds(rules.files))
        let (ruleSet, replaced) = RuleSet.combining(rules.files, extraAllowlists: config.allowlists, keeping: selection.keeps)
        for note in replaced { context.warn(note) }
        if ruleSet.rules.isEmpty { throw UsageError(message: "--disable-rule left no rule to run") }
        var options = ScanOptions(jobs: inv.limits.jobs ?? ScanOptions.coreCount)
        options.ignoreInlineAllow = inv.config.ignoreInlineAllow || !SettingPolicy.permits(SettingPolicy.inlineMarkers, from: .repository)
        options.keepSuppressed = inv.report.includeSuppressed
        options.configFiles = (rules.gitleaksConfig.map { [$0] } ?? []) + (config.path.map { [$0] } ?? [])
        options.ignoredConfigFiles = config.ignored.map { [$0] } ?? []
        inv.limits.resolve(into: &options, config: config)
        options.hashKey = ProcessInfo.processInfo.environment["KEYSHAPE_HASH_KEY"] ?? config.hashKey ?? ""
        if let baseline = inv.config.baseline {
            let contents = try readBaseline(baseline)
            options.baseline = contents.fingerprints
            options.baselineChecks = contents.checks
            options.legacyBaseline = contents.legacyFingerprints
            options.baselineKey = contents.key
            options.baselineEntries = roots.count == 1 ? contents.entries.map { $0.relative(to: roots[0]) } : contents.entries
        }
        // The baseline this run writes keeps the key of the one it replaces (its checks stay
        // valid), else takes the read baseline's, else a new one.
        if let target = inv.report.writeBaseline, options.baselineKey == nil {
            options.baselineKey = FileManager.default.contents(atPath: target).flatMap { try? BaselineFile.load($0, path: target).key }
                ?? SecretKeying.randomKey()
        }
        try GitleaksIgnore.read(roots: roots, noConfig: inv.config.noConfig, into: &options, context: context)
        context.recorder = try DatastoreRecorder.start(inv, roots: roots, options: &options, flagNames: context.flagNames)
        return (ruleSet, options)
    }

    static func readBaseline(_ path: String) throws -> BaselineFile.Contents {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "\(path): cannot read baseline file")
        }
        do { return try BaselineFile.load(data, path: path) } catch let e as BaselineFile.ReadError {
            throw UsageError(message: e.message)
        }
    }
}
