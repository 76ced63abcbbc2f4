import Foundation
import TOML

// Usage: EmbedRulesTool OUTPUT.swift RULES.toml...
// Re-serialises each rule file without `examples` and `negativeExamples` (and without
// comments, which may quote example keys) into a Swift source file.

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: EmbedRulesTool OUTPUT.swift RULES.toml...\n".utf8))
    exit(2)
}
let output = arguments[1]
var entries: [(String, String)] = []
for path in arguments.dropFirst(2) {
    do {
        var table = try TOMLReader.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        if case .array(let rules)? = table["rules"] {
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
swift += "enum BuiltinRules {\n    static let files: [(name: String, text: String)] = [\n"
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
