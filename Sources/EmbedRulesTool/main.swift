import Foundation
import TOML

// Usage: EmbedRulesTool [--pack-version VERSION_FILE] OUTPUT.swift RULES.toml...
// Re-serialises each rule file without `examples` and `negativeExamples` (and without
// comments, which may quote example keys) into a Swift source file, with the rule pack's
// version and the number of rules embedded, for `keyshape version`.

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var packVersion = "unversioned"
if arguments.first == "--pack-version", arguments.count >= 2 {
    let file = arguments[1]
    arguments.removeFirst(2)
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
    packVersion = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // Printed by `keyshape version` and pasted into a Swift literal: keep it a plain version.
    guard !packVersion.isEmpty, packVersion.count <= 32,
          packVersion.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-+".contains($0)) }) else {
        fail("\(file): expected a version such as 2026.12.0")
    }
}
guard let output = arguments.first else {
    fail("usage: EmbedRulesTool [--pack-version VERSION_FILE] OUTPUT.swift RULES.toml...", status: 2)
}
var entries: [(String, String)] = []
var ruleCount = 0
for path in arguments.dropFirst() {
    do {
        var table = try TOMLReader.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        if case .array(let rules)? = table["rules"] {
            ruleCount += rules.count
            table["rules"] = .array(rules.map { value in
                guard case .table(let rule) = value else { return value }
                var stripped = TOMLTable()
                for key in rule.keys where key != "examples" && key != "negativeExamples" { stripped[key] = rule[key] }
                return .table(stripped)
            })
        }
        entries.append(((path as NSString).lastPathComponent, TOMLWriter.write(table)))
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}

func rawLiteral(_ text: String) -> String {
    // Enough `#` that no `"#…` sequence inside the text can close the literal.
    var hashes = 1
    while text.contains("\"" + String(repeating: "#", count: hashes)) { hashes += 1 }
    let h = String(repeating: "#", count: hashes)
    return h + "\"\"\"\n" + text + "\n\"\"\"" + h
}

var swift = "// Generated at build time from Rules/*.toml by EmbedRulesTool. Do not edit.\n"
swift += "enum BuiltinRules {\n"
swift += "    static let packVersion = \"\(packVersion)\"\n"
swift += "    static let ruleCount = \(ruleCount)\n"
swift += "    static let files: [(name: String, text: String)] = [\n"
for (name, text) in entries {
    swift += "        (\"\(name)\", \(rawLiteral(text))),\n"
}
swift += "    ]\n}\n"
do {
    try swift.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("cannot write \(output): \(error)\n".utf8))
    exit(1)
}
