import Foundation
import ScanPipeline
import MatchEngine
import TOML
import CommandLineFlags

/// `.keyshape.toml`: allowlists and `[scan]` settings. Rules come from `--rules` (and from a
/// scanned root's `.gitleaks.toml` read in its place, see `loadGitleaks`).
///
/// Trust: a `--config FILE` is the caller's and trusted like a flag. The scanned root's
/// `.keyshape.toml` belongs to whoever wrote the tree (a pull request can add one), so it is
/// read unless `--no-config`, never silently: the summary names it, what its allowlists
/// suppress is counted there, and what it may set at all is `SettingPolicy`'s to say.
struct ConfigFile {
    /// Whose file this is: `--config FILE` is the user's, a file found at the scanned root the
    /// repository's (its allowlists are then marked `fromRepository`).
    var origin: ConfigOrigin = .user
    var allowlists: [Allowlist] = []
    var maxFileSize: Int?
    var minStringLength: Int?
    var followSymlinks: Bool?
    var hashKey: String?
    var warnings: [String] = []
    /// The file read, if any.
    var path: String?
    /// The scanned root's config that `--no-config` left unread (for the summary).
    var ignored: String?
    /// The rules of the scanned root's `.gitleaks.toml`, when that is the config read: added to
    /// the loaded rules, never replacing or disabling one (see `loadGitleaks`).
    var rules: RuleFile?

    /// - Parameter noConfig: do not read the scanned root's `.keyshape.toml`. With `explicit`
    ///   too it means "only that file": which is what `--config` alone does already, since an
    ///   explicit file replaces the root's; so the two combine and neither is an error.
    /// - Parameters:
    ///   - gitleaksConfigGiven: a gitleaks config came from `GITLEAKS_CONFIG` or
    ///     `GITLEAKS_CONFIG_TOML`, which outrank a `.gitleaks.toml` in the root, as in gitleaks.
    ///   - loadedRuleIds: the rules already loaded, which the root's `.gitleaks.toml` cannot replace.
    static func load(explicit: String?, roots: [String], noConfig: Bool = false, gitleaksConfigGiven: Bool = false,
                     loadedRuleIds: Set<String> = []) throws -> ConfigFile {
        let path: String
        if let explicit {
            path = explicit
            guard FileManager.default.fileExists(atPath: path) else { throw UsageError(message: "\(path): no such config file") }
        } else {
            var isDir: ObjCBool = false
            let root = roots.count == 1 && FileManager.default.fileExists(atPath: roots[0], isDirectory: &isDir) && isDir.boolValue ? roots[0] : "."
            path = (root as NSString).appendingPathComponent(".keyshape.toml")
            if !FileManager.default.fileExists(atPath: path) {
                // gitleaks' own config at the root, when keyshape's is absent.
                let gitleaks = (root as NSString).appendingPathComponent(".gitleaks.toml")
                guard !gitleaksConfigGiven, FileManager.default.fileExists(atPath: gitleaks) else { return ConfigFile() }
                if noConfig { return ConfigFile(ignored: gitleaks) }
                return try loadGitleaks(gitleaks, loadedRuleIds: loadedRuleIds)
            }
            if noConfig { return ConfigFile(ignored: path) }
        }
        let origin: ConfigOrigin = explicit == nil ? .repository : .user
        let file = try RuleLoader.load(text: try readText(path), file: path, kind: .config)
        var config = ConfigFile(origin: origin, allowlists: file.allowlists, warnings: file.warnings.map(\.description), path: path)
        if origin == .repository { config.markFromScannedRoot() }
        if !file.rules.isEmpty {
            // A config's rules add to the loaded ones and never replace one (a same-id rule is
            // left out, with a warning); the scanned tree's run as its own (`fromRepository`).
            var rules = RuleFile()
            for var rule in file.rules {
                if loadedRuleIds.contains(rule.id) {
                    config.warnings.append("\(rule.source): warning: a config cannot replace a loaded rule; its rule of that id is left out (put it in a --rules file with `override = true`)")
                    continue
                }
                rule.fromRepository = origin == .repository
                rules.rules.append(rule)
            }
            config.rules = rules
        }
        // A config (which a scanned repository can bring) never switches rules off.
        if !file.disabledRules.isEmpty {
            config.warnings.append("\(path): warning: `[extend] disabledRules` is ignored in a config file (use --disable-rule)")
        }
        if file.extendPath != nil {
            config.warnings.append("\(path): warning: `[extend] path` is ignored in a config file (pass the base file with --rules)")
        }
        if file.useDefault == false {
            config.warnings.append("\(path): warning: `[extend] useDefault = false` is ignored in a config file (use --no-builtin-rules)")
        }
        if let scan = file.settings {
            for key in scan.keys {
                let pos = scan.position(of: key).map { "\(path):\($0.line):\($0.column)" } ?? path
                // A limit, what is read, the hash key: the user's (the value is not even checked).
                let name = "[scan] " + key
                if SettingPolicy.entry(name) != nil && !SettingPolicy.permits(name, from: origin) {
                    config.warnings.append(SettingPolicy.ignoredWarning(name, at: pos))
                    continue
                }
                switch key {
                case "maxFileSize":
                    if let n = scan[key]?.integerValue { config.maxFileSize = Int(n) }
                    else if let s = scan[key]?.stringValue, let n = ByteSize.parse(s) { config.maxFileSize = n }
                    else { throw UsageError(message: "\(pos): maxFileSize must be a number of bytes or a size such as \"100MiB\"") }
                case "minStringLength":
                    // The flag's bounds: a config must not raise it so far that binaries yield no strings.
                    guard let n = scan[key]?.integerValue, n >= 4, n <= 1024 else { throw UsageError(message: "\(pos): minStringLength must be an integer from 4 to 1024") }
                    config.minStringLength = Int(n)
                case "followSymlinks":
                    guard let b = scan[key]?.boolValue else { throw UsageError(message: "\(pos): followSymlinks must be true or false") }
                    config.followSymlinks = b
                case "hashKey":
                    guard let s = scan[key]?.stringValue else { throw UsageError(message: "\(pos): hashKey must be a string") }
                    config.hashKey = s
                default:
                    // Not named: a key is text from the file (see RuleLoader.named).
                    config.warnings.append("\(pos): warning: unknown key in [scan] (ignored)")
                }
            }
        }
        return config
    }

    /// Bounded and regular files only: the default config comes from the scanned tree, which
    /// may hold a FIFO or a 2 GiB file by that name.
    static func readText(_ path: String) throws -> String {
        let bytes: [UInt8]
        do { bytes = try SettingsFile.contents(of: path) } catch {
            throw UsageError(message: "\(path): cannot read config file (\(error.message))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError(message: "\(path): cannot read config file as UTF-8 text")
        }
        return text
    }

    /// The scanned root's `.gitleaks.toml`: a gitleaks config, so its rules are read, not
    /// only its allowlists. It belongs to whoever wrote the tree, so it can add findings but
    /// not take any away silently: its rules are added to the loaded ones and never replace one
    /// (a same-id rule is left out, with a warning), its `disabledRules` and `useDefault = false`
    /// are ignored with a warning (the builtin pack stays), `[extend] path` is not followed (a
    /// tree does not choose what else is read), and what its allowlists suppress is counted
    /// and the summary names the file, as for `.keyshape.toml`.
    static func loadGitleaks(_ path: String, loadedRuleIds: Set<String>) throws -> ConfigFile {
        var file = try RuleLoader.load(text: try readText(path), file: path)
        var config = ConfigFile(origin: .repository, allowlists: file.allowlists, warnings: file.warnings.map(\.description), path: path)
        if !file.disabledRules.isEmpty && !SettingPolicy.permits("[extend] disabledRules", from: .repository) {
            config.warnings.append("\(path): warning: `[extend] disabledRules` is ignored in the scanned root's config (use --disable-rule)")
            file.disabledRules = []
        }
        if file.useDefault == false && !SettingPolicy.permits("[extend] useDefault", from: .repository) {
            config.warnings.append("\(path): warning: `[extend] useDefault = false` is ignored in the scanned root's config: the builtin rules still run")
        }
        if file.extendPath != nil && !SettingPolicy.permits("[extend] path", from: .repository) {
            config.warnings.append("\(path): warning: `[extend] path` is not followed from the scanned root's config (pass the base file with --rules)")
            file.extendPath = nil
        }
        if !file.rules.isEmpty && !SettingPolicy.permits("[[rules]]", from: .repository) {
            config.warnings.append(SettingPolicy.ignoredWarning("[[rules]]", at: path))
            file.rules = []
        }
        let replacing = file.rules.filter { loadedRuleIds.contains($0.id) }
        for rule in replacing {
            config.warnings.append("\(rule.source): warning: the scanned root's config cannot replace a loaded rule; its rule of that id is left out")
        }
        file.rules.removeAll { loadedRuleIds.contains($0.id) }
        // Its allowlists are the config's (counted when they suppress), not the rules file's.
        file.allowlists = []
        config.rules = file
        config.markFromScannedRoot()
        return config
    }

    /// The scanned tree's allowlists may suppress by path and commit (counted), but their
    /// checks of content judge only the tree's own rules (`Allowlist.fromRepository`); a
    /// warning says so once per file that has such checks.
    mutating func markFromScannedRoot() {
        for i in allowlists.indices { allowlists[i].fromRepository = true }
        if let path, allowlists.contains(where: { $0.testsContent && $0.targetRules.isEmpty }) {
            warnings.append("\(path): warning: allowlist `regexes` and `stopwords` from the scanned root's config apply to that config's own rules only; to silence a builtin rule there, allowlist the path, mark the line `keyshape:allow`, or pass the allowlist with --config")
        }
    }
}
