import ScanCore

/// What a report needs beside the findings: choices the command line made. Every reporter
/// takes the same value, so the format registry can call them all alike.
public struct ReportOptions: Sendable {
    /// `--include-suppressed`: suppressed findings go into the formats that can mark them.
    public var includeSuppressed = false
    /// `--color`: text output colours the location and the rule id.
    public var color = false
    /// How SARIF names artifacts and the run.
    public var sarif = SARIFSettings()
    /// Per finding, index for index: repository, triage status and note, when the findings
    /// come from a datastore (`keyshape report`); empty otherwise. JSON, JSONL and HTML show it.
    public var context: [FindingContext] = []
    /// The HTML report's heading.
    public var title = "keyshape report"
    /// When the scan started and ended, UTC `yyyy-mm-ddThh:mm:ss` (GitLab's report needs
    /// both); the CLI sets them, so the reporters stay pure. nil: the epoch, for tests.
    public var scanTimes: (start: String, end: String)?

    public init() {}
}

/// SARIF choices that depend on where the scan ran (the CLI works them out; the reporter
/// stays a pure function of its inputs).
public struct SARIFSettings: Sendable {
    /// `runs[0].automationDetails.id`: code scanning keeps one set of alerts per category,
    /// so two analyses of one repository (scan and history) do not close each other's alerts.
    public var category = "keyshape/"
    /// Maps a report path (as in JSON) to the artifact URI relative to `%SRCROOT%`.
    public var artifactPath: @Sendable (String) -> String = { $0 }
    /// The absolute folder `%SRCROOT%` stands for (the git work tree's root, or the scanned
    /// root outside one); nil leaves `originalUriBaseIds` out.
    public var sourceRoot: String?

    public init(category: String = "keyshape/", artifactPath: @escaping @Sendable (String) -> String = { $0 }, sourceRoot: String? = nil) {
        self.category = category
        self.artifactPath = artifactPath
        self.sourceRoot = sourceRoot
    }
}
