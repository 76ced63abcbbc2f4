import ScanCore

/// A loaded rule as `rules list` shows it: its identity and what makes it run. A rule's
/// pattern and keywords are its definition, public like its id; its examples are not here.
public struct RuleListing: Sendable {
    public var id: String
    public var description: String
    public var tags: [String]
    public var keywords: [String]
    public var regex: String

    public init(id: String, description: String, tags: [String], keywords: [String], regex: String) {
        self.id = id
        self.description = description
        self.tags = tags
        self.keywords = keywords
        self.regex = regex
    }
}

/// `keyshape rules list` in the formats that have a shape for a list of rules.
public enum RuleListReporter {
    /// Ids, descriptions and tags come from rules files, which may be a scanned repository's
    /// own: escaped like every other name in text output.
    @Sendable public static func text(_ rules: [RuleListing]) -> String {
        let shown = rules.map { r in
            (id: DisplayText.escaped(r.id), description: DisplayText.escaped(r.description), tags: r.tags.map(DisplayText.escaped))
        }
        let width = min(40, shown.map(\.id.count).max() ?? 0)
        var out = ""
        for r in shown {
            let pad = String(repeating: " ", count: max(1, width + 2 - r.id.count))
            let tags = r.tags.isEmpty ? "" : "  [" + r.tags.joined(separator: ", ") + "]"
            out += r.id + pad + r.description + tags + "\n"
        }
        return out + "\(rules.count) rules\n"
    }

    /// `{"count": N, "rules": [...]}`, keys in alphabetical order as before the registry.
    @Sendable public static func json(_ rules: [RuleListing]) -> String {
        JSONWriter.render(.object([("count", .int(rules.count)), ("rules", .array(rules.map(object)))]), pretty: true) + "\n"
    }

    @Sendable public static func jsonLines(_ rules: [RuleListing]) -> String {
        rules.map { JSONWriter.render(object($0), pretty: false) + "\n" }.joined()
    }

    @Sendable public static func csv(_ rules: [RuleListing]) -> String {
        var out = CSVReporter.row(["id", "description", "tags", "keywords"])
        for r in rules { out += CSVReporter.row([r.id, r.description, r.tags.joined(separator: " "), r.keywords.joined(separator: " ")]) }
        return out
    }

    static func object(_ r: RuleListing) -> JSONWriter.Value {
        .object([("description", .string(r.description)), ("id", .string(r.id)),
                 ("keywords", .array(r.keywords.map { .string($0) })), ("regex", .string(r.regex)),
                 ("tags", .array(r.tags.map { .string($0) }))])
    }
}
