import Foundation
import ScanPipeline
import ScanReport

/// gitleaks' `.gitleaksignore` at the scanned root (the repository root for history and
/// staged). It comes from the tree, like `.keyshape.toml`: read unless `--no-config`, named in
/// the summary, and what it suppresses counted as baseline.
enum GitleaksIgnore {
    static let name = ".gitleaksignore"

    static func read(roots: [String], noConfig: Bool, into options: inout ScanOptions, context: RunContext) throws {
        var isDir: ObjCBool = false
        guard roots.count == 1, FileManager.default.fileExists(atPath: roots[0], isDirectory: &isDir), isDir.boolValue else { return }
        let path = (roots[0] as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { return }
        if noConfig || !SettingPolicy.permits(SettingPolicy.gitleaksIgnore, from: .repository) { options.ignoredConfigFiles.append(path); return }
        let text = try ConfigFile.readText(path)
        let (entries, warnings) = GitleaksBaseline.parseIgnoreFile(text, path: path)
        for w in warnings { context.warn(w) }
        options.baselineEntries += entries
        options.configFiles.append(path)
    }
}
