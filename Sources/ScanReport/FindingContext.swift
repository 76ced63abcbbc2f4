/// What a datastore knows of a finding beside the finding itself: which repository, its
/// triage status and the auditor's note. `ReportOptions.context[i]` belongs to
/// `result.findings[i]`; a report from a scan has none.
public struct FindingContext: Sendable, Hashable {
    public var repository: String?
    public var status: String?
    /// Data (typed by an auditor): escaped by every reporter that shows it.
    public var note: String?

    public init(repository: String? = nil, status: String? = nil, note: String? = nil) {
        self.repository = repository
        self.status = status
        self.note = note
    }
}
