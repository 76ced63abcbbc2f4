import Foundation
import TOML

// Usage: EmbedRulesTool [--pack-version VERSION_FILE] OUTPUT.swift RULES.toml...
// Parses each rule file, drops `examples` and `negativeExamples` (comments are gone with the
// text, and they may quote example keys), and writes the parsed tables into a Swift source
// file in TOMLBinaryFormat, with the rule pack's version and the number of rules embedded,
// for `keyshape version`. Start-up then decodes tables instead of parsing TOML: an
// empty-file scan spent 19-31% of its CPU time parsing the embedded text.

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
var entries: [(String, [UInt8])] = []
var ruleCount = 0
for path in arguments.dropFirst() {
    do {
        var table = try TOMLReader.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        if case .array(let rules)? = table["rules"] {
            ruleCount += rules.count
            table["rules"] = .array(rules.map { value in
                guard case .table(var rule) = value else { return value }
                // Removing keys keeps the others' positions, so a builtin rule's warning
                // or error names its line in Rules/.
                rule["examples"] = nil
                rule["negativeExamples"] = nil
                return .table(rule)
            })
        }
        entries.append(((path as NSString).lastPathComponent, TOMLBinaryWriter.encode(table)))
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}

/// A `StaticString` literal holding exactly `bytes`, which TOMLBinaryFormat keeps valid
/// UTF-8. Everything but printable ASCII is a `\u{…}` escape, so the generated file is
/// plain ASCII whatever the rules hold (no raw control character or bidi mark in it).
func staticStringLiteral(_ bytes: [UInt8]) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else { fail("encoded rules are not UTF-8") }
    var out = "\""
    out.reserveCapacity(bytes.count * 2)
    for scalar in text.unicodeScalars {
        if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\" {
            out.unicodeScalars.append(scalar)
        } else {
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
    return out + "\""
}

var swift = "// Generated at build time from Rules/*.toml by EmbedRulesTool. Do not edit.\n"
swift += "public enum BuiltinRules {\n"
swift += "    public static let packVersion = \"\(packVersion)\"\n"
swift += "    public static let ruleCount = \(ruleCount)\n"
swift += "    /// Each rule file's parsed table without examples, in TOMLBinaryFormat.\n"
swift += "    public static let tables: [(name: String, encoded: StaticString)] = [\n"
for (name, bytes) in entries {
    swift += "        (\"\(name)\", \(staticStringLiteral(bytes))),\n"
}
swift += "    ]\n}\n"
do {
    try swift.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("cannot write \(output): \(error)\n".utf8))
    exit(1)
}
