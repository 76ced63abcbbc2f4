import Foundation
import ScanEngine
import ScanRules
import TOML

/// `.keyshape.toml`: allowlists and `[scan]` settings. Rules come from `--rules`.
///
/// Trust: a `--config FILE` is the caller's and trusted like a flag. The scanned root's
/// `.keyshape.toml` belongs to whoever wrote the tree (a pull request can add one), so it is
/// read unless `--no-config`, never silently: the summary names it, and what its allowlists
/// suppress is counted there.
struct ConfigFile {
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

    /// - Parameter noConfig: do not read the scanned root's `.keyshape.toml`. With `explicit`
    ///   too it means "only that file": which is what `--config` alone does already, since an
    ///   explicit file replaces the root's; so the two combine and neither is an error.
    static func load(explicit: String?, roots: [String], noConfig: Bool = false) throws -> ConfigFile {
        let path: String
        if let explicit {
            path = explicit
            guard FileManager.default.fileExists(atPath: path) else { throw UsageError(message: "\(path): no such config file") }
        } else {
            var isDir: ObjCBool = false
            let root = roots.count == 1 && FileManager.default.fileExists(atPath: roots[0], isDirectory: &isDir) && isDir.boolValue ? roots[0] : "."
            path = (root as NSString).appendingPathComponent(".keyshape.toml")
            guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
            if noConfig { return ConfigFile(ignored: path) }
        }
        // Bounded and regular files only: the default config comes from the scanned tree,
        // which may hold a FIFO or a 2 GiB file by that name.
        let bytes: [UInt8]
        do { bytes = try SettingsFile.contents(of: path) } catch {
            throw UsageError(message: "\(path): cannot read config file (\(error.message))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError(message: "\(path): cannot read config file as UTF-8 text")
        }
        let file = try RuleLoader.load(text: text, file: path, kind: .config)
        var config = ConfigFile(allowlists: file.allowlists, warnings: file.warnings.map(\.description), path: path)
        // A config (which a scanned repository can bring) never switches rules off.
        if !file.disabledRules.isEmpty {
            config.warnings.append("\(path): warning: `[extend] disabledRules` is ignored in a config file (use --disable-rule)")
        }
        if let scan = file.settings {
            for key in scan.keys {
                let pos = scan.position(of: key).map { "\(path):\($0.line):\($0.column)" } ?? path
                switch key {
                case "maxFileSize":
                    if let n = scan[key]?.integerValue { config.maxFileSize = Int(n) }
                    else if let s = scan[key]?.stringValue, let n = FlagTable.parseSize(s) { config.maxFileSize = n }
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
}
