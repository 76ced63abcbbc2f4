/// Keeps a tool's own arguments out of what it prints (keyshape-credentials, byok).
///
/// A connection name, a provider, a store or a header name typed on the command line may be
/// a key pasted in the wrong place (`status sk-ant-...`), and the messages of the credential
/// store and the provider client quote ids and references. The tools' own texts leave
/// arguments out; this is the last step before a message is written: every argument value
/// (not flags, not paths, not the tool's own vocabulary such as `anthropic` or `memory`) of
/// at least 4 characters is replaced by `<argument N>`. Shorter values carry too little to
/// matter and would garble ordinary words.
public struct ArgumentEcho: Sendable {
    private let values: [(text: String, index: Int)]

    /// - Parameters:
    ///   - vocabulary: values that are the tool's own words (commands, provider and store
    ///     names), which may be printed.
    ///   - pathFlags: flags whose value is a path (naming a path the user gave is how errors
    ///     say which file).
    public init(arguments: [String], vocabulary: Set<String>, pathFlags: Set<String>) {
        var values: [(String, Int)] = []
        for (i, argument) in arguments.enumerated() {
            if argument.hasPrefix("-") && !argument.contains("=") { continue }
            if i > 0, pathFlags.contains(arguments[i - 1]) { continue }
            // `--flag=value` keeps only the value; the flag itself is the tool's word.
            let value = argument.hasPrefix("-") ? String(argument.split(separator: "=", maxSplits: 1).last ?? "") : argument
            if value.count >= 4, !vocabulary.contains(value) { values.append((value, i + 1)) }
        }
        // Longest first, so a value that contains another is replaced whole.
        self.values = values.sorted { $0.0.count > $1.0.count }
    }

    public func scrub(_ text: String) -> String {
        var result = text
        for value in values where result.contains(value.text) {
            result = result.replacingOccurrences(of: value.text, with: "<argument \(value.index)>")
        }
        return result
    }
}
