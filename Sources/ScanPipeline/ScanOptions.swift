import ScanCore

/// How a scan runs. Everything here comes from flags or the config file.
public struct ScanOptions: Sendable {
    /// Worker threads; defaults to the number of cores.
    public var jobs: Int
    /// Larger files are not read and are reported as issues.
    /// (Default: none. A large file is read in bounded chunks, not refused: a checked-in model,
    /// a database dump or a game asset is no error; 100 MiB was, and made ordinary trees exit 2.)
    public var maxFileSize: Int = .max
    /// What is read whole into memory rather than in chunks (an archive member, a commit's or
    /// tag's text, a blob a merge deleted) is bounded apart from files: at most this, and at
    /// most `maxFileSize`. Past it, an error entry names the limit (fail closed).
    public var maxInMemorySize = 256 << 20
    public var inMemoryLimit: Int { min(maxFileSize, maxInMemorySize) }
    public var followSymlinks = false
    /// Minimum printable run kept from files that are not text.
    public var minStringLength = 8
    /// Fingerprints to leave out of the report: entries of a baseline that carry no value check
    /// (written by hand from a report). Entries with one match by `baselineChecks` instead.
    public var baseline: Set<String> = []
    /// Baseline entries that name places (gitleaks' `.gitleaksignore`, a gitleaks report):
    /// applied where every finding is made (`FindingBuilder`), as `baseline` is.
    public var baselineEntries: [BaselineEntry] = []
    /// The user's hash key as given (`KEYSHAPE_HASH_KEY`, a `--config` file's `hashKey`);
    /// empty for none. Kept to match release 0.2's baselines, whose fingerprints it keyed.
    public var hashKey: String = "" {
        didSet { if !hashKey.isEmpty { secretKeying = .user(hashKey) } }
    }
    /// The key of every `secretHash` (see `SecretKeying` for where it comes from).
    public var secretKeying: SecretKeying = .process
    /// A v2 baseline's key: each finding's value gets a check under it (`SecretHasher.baselineTags`)
    /// for `baselineChecks` and for the baseline this run writes. Nil when no baseline is used.
    public var baselineKey: [UInt8]? = nil
    /// The value checks a v2 baseline lists.
    public var baselineChecks: Set<String> = []
    /// Fingerprints of a release 0.2 baseline: matched by computing 0.2's fingerprint of each
    /// finding (never printed).
    public var legacyBaseline: Set<String> = []
    /// What the datastore's triage settled: `fingerprint/secretHash` pairs, so a decision on one
    /// value does not cover another value later found at the same place.
    public var settledPairs: Set<String> = []
    /// Report findings on `keyshape:allow` / `gitleaks:allow` lines too (`--ignore-inline-allow`:
    /// auditors of a repository they do not trust).
    public var ignoreInlineAllow = false
    /// Keep the suppressed findings themselves (`--include-suppressed`), not only their
    /// counts. Costs a secret hash for each distinct suppressed value.
    public var keepSuppressed = false
    /// The settings files in force and the scanned root's config left unread (`--no-config`),
    /// for the summary only: scanning never reads these.
    public var configFiles: [String] = []
    public var ignoredConfigFiles: [String] = []
    /// Archives found by content are opened to this depth (0: not opened, scanned as bytes);
    /// see Archives/ArchiveLimits for why 4.
    public var maxArchiveDepth = 4
    /// What one top-level archive may expand to, all nesting levels counted (1 GiB).
    public var maxArchiveSize = 1 << 30
    /// Levels of encoded values decoded and scanned in text buffers (`--max-decode-depth`):
    /// 0 decodes nothing; 2, the default, also decodes what one decoded value holds
    /// (base64 of a percent-encoded URL). The decoded bytes of a buffer are bounded by
    /// `DecodeBudget` whatever the depth.
    public var maxDecodeDepth = 2
    /// Size of the bounded read buffer per worker.
    public var chunkSize = 8 << 20

    public init(jobs: Int = ScanOptions.coreCount) {
        self.jobs = max(1, jobs)
    }

    public static var coreCount: Int { max(1, ProcessInfoShim.activeProcessorCount) }
}

import Foundation
enum ProcessInfoShim {
    static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
