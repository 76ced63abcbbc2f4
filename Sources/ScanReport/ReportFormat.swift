import ScanCore

/// The one table of report formats: `--format`, its help text and its error message, the
/// extra `--FORMAT-output FILE` reports and `rules list --format` are all derived from it,
/// so a format added here is offered everywhere at once.
public struct ReportFormat: Sendable {
    public let name: String
    public let help: String
    /// Whether the report itself lists the scan's errors; when it does not (text, JSONL,
    /// CSV), the CLI prints them on stderr so that an exit status 2 is never unexplained.
    public let carriesErrors: Bool
    /// Whether the report is its findings' pieces one after another (text, JSONL), so it can
    /// be written as findings are made.
    public var streams: Bool { name == "text" || name == "jsonl" }
    public let render: @Sendable (ScanResult, ReportOptions) -> String
    /// `rules list` in this format; nil when the format has no shape for a rule list.
    public let renderRules: (@Sendable ([RuleListing]) -> String)?

    public static let all: [ReportFormat] = [
        ReportFormat(name: "text", help: "one finding a line, path:line:column: rule (description) [fingerprint]", carriesErrors: false,
                     render: { r, o in TextReporter.report(r, color: o.color) }, renderRules: RuleListReporter.text),
        ReportFormat(name: "json", help: "one JSON object: findings, errors, stats", carriesErrors: true,
                     render: { r, o in JSONReporter.report(r, context: o.context) }, renderRules: RuleListReporter.json),
        ReportFormat(name: "jsonl", help: "one JSON finding object a line", carriesErrors: false,
                     render: { r, o in JSONReporter.reportLines(r, context: o.context) }, renderRules: RuleListReporter.jsonLines),
        ReportFormat(name: "sarif", help: "SARIF 2.1.0 for code scanning", carriesErrors: true,
                     render: { r, o in SARIFReporter.report(r, includeSuppressed: o.includeSuppressed, settings: o.sarif) }, renderRules: nil),
        ReportFormat(name: "junit", help: "JUnit XML: a failing test case per finding, an error per scan error", carriesErrors: true,
                     render: { r, _ in JUnitReporter.report(r) }, renderRules: nil),
        ReportFormat(name: "csv", help: "RFC 4180 CSV with a header row, one finding a row", carriesErrors: false,
                     render: { r, _ in CSVReporter.report(r) }, renderRules: RuleListReporter.csv),
        ReportFormat(name: "html", help: "one self-contained HTML page: charts, a sortable and filterable table, a section per secret", carriesErrors: true,
                     render: { r, o in HTMLReporter.report(r, context: o.context, title: o.title) }, renderRules: nil),
        ReportFormat(name: "markdown", help: "GitHub-flavoured Markdown for a CI job summary: counts by severity and rule, a row per finding (place, commit)", carriesErrors: true,
                     render: { r, _ in MarkdownReporter.report(r) }, renderRules: nil),
        ReportFormat(name: "gitlab", help: "GitLab's secret_detection security report (schema 15.2.1), for artifacts:reports:secret_detection", carriesErrors: true,
                     render: { r, o in GitLabReporter.report(r, times: o.scanTimes) }, renderRules: nil),
    ]

    public static func named(_ name: String) -> ReportFormat? { all.first { $0.name == name } }

    /// The formats `rules list` writes: those with a rule-list renderer.
    public static var ruleListFormats: [ReportFormat] { all.filter { $0.renderRules != nil } }

    /// `text|json|...`, the placeholder `--help` shows.
    public static var placeholder: String { all.map(\.name).joined(separator: "|") }

    /// `text, json, ... or csv`, for error messages.
    public static func list(_ formats: [ReportFormat] = all) -> String {
        let names = formats.map(\.name)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    public static var text: ReportFormat { named("text")! }
}
