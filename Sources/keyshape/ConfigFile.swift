import FileInputs
import Foundation
import ScanRules
import TOML

/// `.keyshape.toml`: allowlists and `[scan]` settings. Rules come from `--rules`.
struct ConfigFile {
    var allowlists: [Allowlist] = []
    var maxFileSize: Int?
    var minStringLength: Int?
    var followSymlinks: Bool?
    var hashKey: String?
    var warnings: [String] = []
    var path: String?

    static func load(explicit: String?, roots: [String]) throws -> ConfigFile {
        let path: String
        if let explicit {
            path = explicit
            guard FileManager.default.fileExists(atPath: path) else { throw UsageError(message: "\(path): no such config file") }
        } else {
            var isDir: ObjCBool = false
            let root = roots.count == 1 && FileManager.default.fileExists(atPath: roots[0], isDirectory: &isDir) && isDir.boolValue ? roots[0] : "."
            path = (root as NSString).appendingPathComponent(".keyshape.toml")
            guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        }
        // Bounded and regular files only: the default config comes from the scanned tree,
        // which may hold a FIFO or a 2 GiB file by that name.
        let bytes: [UInt8]
        do { bytes = try BoundedRead.contents(of: path) } catch {
            throw UsageError(message: "\(path): cannot read config file (\(error.message))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError(message: "\(path): cannot read config file as UTF-8 text")
        }
        let file = try RuleLoader.load(text: text, file: path, kind: .config)
        var config = ConfigFile(allowlists: file.allowlists, warnings: file.warnings.map(\.description), path: path)
        if let scan = file.settings {
            for key in scan.keys {
                let pos = scan.position(of: key).map { "\(path):\($0.line):\($0.column)" } ?? path
                switch key {
                case "maxFileSize":
                    if let n = scan[key]?.integerValue { config.maxFileSize = Int(n) }
                    else if let s = scan[key]?.stringValue, let n = FlagTable.parseSize(s) { config.maxFileSize = n }
                    else { throw UsageError(message: "\(pos): maxFileSize must be a number of bytes or a size such as \"100MiB\"") }
                case "minStringLength":
                    guard let n = scan[key]?.integerValue, n >= 4 else { throw UsageError(message: "\(pos): minStringLength must be an integer >= 4") }
                    config.minStringLength = Int(n)
                case "followSymlinks":
                    guard let b = scan[key]?.boolValue else { throw UsageError(message: "\(pos): followSymlinks must be true or false") }
                    config.followSymlinks = b
                case "hashKey":
                    guard let s = scan[key]?.stringValue else { throw UsageError(message: "\(pos): hashKey must be a string") }
                    config.hashKey = s
                default:
                    config.warnings.append("\(pos): warning: unknown key `\(key)` in [scan]")
                }
            }
        }
        return config
    }
}
