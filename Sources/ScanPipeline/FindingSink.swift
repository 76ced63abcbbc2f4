import ScanCore

/// Where a scanner pushes the findings it reports, as it goes: the streamed text output of
/// `scan` today; reporters and the datastore later. The scanners still return the whole
/// sorted result at the end; a sink is for output that should not wait for it.
///
/// Calls come one at a time (the scanner serialises them), each with one unit's findings
/// (a file's, in position order), units in the order their scans finish. Only reported
/// findings arrive here: suppressed ones are counted in the result, never streamed.
public protocol FindingSink: AnyObject, Sendable {
    func receive(_ findings: [Finding])
}

/// A sink that hands each unit's findings to a closure (what `Scanner.onFileFindings` sets).
public final class ClosureFindingSink: FindingSink {
    let body: @Sendable ([Finding]) -> Void

    public init(_ body: @escaping @Sendable ([Finding]) -> Void) { self.body = body }

    public func receive(_ findings: [Finding]) { body(findings) }
}
