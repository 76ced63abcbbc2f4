import Foundation
import PackagePlugin

/// Embeds `Rules/*.toml` into the executable at build time, without their examples, so
/// `keyshape scan` works from any folder with no config and the shipped binary contains
/// none of the example secrets. `Rules/VERSION` is the rule pack's version, which
/// `keyshape version` prints beside the number of rules embedded.
@main
struct EmbedRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let rules = context.package.directoryURL.appending(path: "Rules")
        let files = try FileManager.default.contentsOfDirectory(at: rules, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let version = rules.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinRules.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) builtin rule files",
            executable: try context.tool(named: "EmbedRulesTool").url,
            arguments: ["--pack-version", version.path, output.path] + files.map(\.path),
            inputFiles: files + [version],
            outputFiles: [output]
        )]
    }
}
