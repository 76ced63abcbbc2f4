import TestSupport

/// A finished run of a built executable (TestSupport's `runProcess`).
typealias ProcessResult = ProcessRun
