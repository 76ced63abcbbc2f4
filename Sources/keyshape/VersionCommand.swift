import Application
import ScanCore

/// `keyshape version`: keyshape's version, then the builtin rule pack's version
/// (`Rules/VERSION`) and how many rules the binary embeds, both fixed at build time.
enum VersionCommand {
    static var text: String {
        "keyshape \(KeyshapeVersion.current) (rules \(BuiltinRules.packVersion), \(BuiltinRules.ruleCount) rules)"
    }

    static func run() -> Int32 {
        Terminal.out(text + "\n")
        return 0
    }
}
