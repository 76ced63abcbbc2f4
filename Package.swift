// swift-tools-version:6.0
import PackageDescription

// The dependency graph is the data flow: inputs -> engine -> scanner -> reporters -> CLI.
// A target can only import what it lists, so a reporter cannot reach a buffer and
// an input cannot reach the matcher.
let package = Package(
    name: "keyshape",
    products: [
        .executable(name: "keyshape", targets: ["keyshape"]),
        .executable(name: "keyshape-credentials", targets: ["keyshape-credentials"]),
        .executable(name: "byok", targets: ["byok"]),
        .library(name: "CredentialStore", targets: ["CredentialStore"]),
    ],
    targets: [
        // System C libraries (installed by scripts/bootstrap from Debian packages).
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8",
                       providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive",
                       providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        // The one seam for read, pread, write, open and close on a descriptor: EINTR retried,
        // short reads and writes continued, failures as errno values. No dependencies.
        .target(name: "POSIXIO"),

        // Formats and value types.
        .target(name: "TOML"),
        .target(name: "ScanCore"),

        // Rules and the matching engine.
        .target(name: "MatchEngine", dependencies: ["CPCRE2", "TOML", "ScanCore"]),

        // Inputs: bytes with provenance.
        .target(name: "FileInputs", dependencies: ["ScanCore", "POSIXIO"]),
        // Transform: encoded values (base64, hex, percent, escapes, data: URIs) decoded for
        // the matcher; pure, no dependencies but its own C pass (CByteMasks).
        .target(name: "Decoders", dependencies: ["CByteMasks"]),
        // The decoders' candidate search over a buffer as bitmaps (AVX-512, AVX2 or SSE2 as the
        // processor allows, a byte loop elsewhere).
        .target(name: "CByteMasks"),
        // libFuzzer harness for the decoders; a plain build makes a seed replayer.
        .executableTarget(name: "DecodersFuzzer", dependencies: ["FuzzChecks", "FuzzDriver"], path: "Fuzz/DecodersFuzzer"),
        // Throughput of the candidate finder on a folder, and of its C pass alone at each tier,
        // run by hand (not a test).
        .executableTarget(name: "DecodersBench", dependencies: ["Decoders", "CByteMasks"], path: "Fuzz/DecodersBench"),

        .target(name: "GitHistory", dependencies: ["POSIXIO"]),
        .target(name: "ObjectFiles", dependencies: ["POSIXIO"]),
        // libFuzzer harness for the object-file parsers; a plain build makes a seed replayer.
        .executableTarget(name: "ObjectFilesFuzzer", dependencies: ["ObjectFiles", "FuzzDriver"], path: "Fuzz/ObjectFilesFuzzer"),
        // Archives (zip and its kin, tar with its compressors, ar) read member by member through
        // libarchive's callbacks, under limits that fail closed; a transform, not a scanner.
        .target(name: "Archives", dependencies: ["CArchive", "ScanCore", "POSIXIO"]),
        .executableTarget(name: "ArchivesFuzzer", dependencies: ["Archives", "FuzzDriver"], path: "Fuzz/ArchivesFuzzer"),
        // The formats app bundles carry (binary plists, DEX, Android binary XML and resource
        // tables, Java class files): their strings with byte offsets, bounds-checked; pure, no
        // dependencies. One libFuzzer harness per parser.
        .target(name: "AppFormats"),
        .executableTarget(name: "BinaryPlistFuzzer", dependencies: ["AppFormats", "FuzzDriver"], path: "Fuzz/BinaryPlistFuzzer"),
        .executableTarget(name: "DEXFuzzer", dependencies: ["AppFormats", "FuzzDriver"], path: "Fuzz/DEXFuzzer"),
        .executableTarget(name: "AndroidResourcesFuzzer", dependencies: ["AppFormats", "FuzzDriver"], path: "Fuzz/AndroidResourcesFuzzer"),
        .executableTarget(name: "JavaClassFuzzer", dependencies: ["AppFormats", "FuzzDriver"], path: "Fuzz/JavaClassFuzzer"),

        // Scanner: inputs -> matcher -> findings.
        .target(name: "ScanPipeline", dependencies: ["ScanCore", "MatchEngine", "FileInputs", "ObjectFiles", "GitHistory", "CCrypto", "Archives", "Decoders", "AppFormats", "POSIXIO"]),

        // The executables' one way to write stdout and stderr (write(2), errors as values).
        .target(name: "StandardStreams", dependencies: ["POSIXIO"]),

        // Reporters: findings -> text.
        .target(name: "ScanReport", dependencies: ["ScanCore"]),

        // The store: runs, findings (never values), triage and blob scans in SQLite.
        .target(name: "Datastore", dependencies: ["CSQLite", "ScanCore"]),

        // libFuzzer harnesses for the TOML reader and rule loader and for the whole per-file
        // scan; a plain build makes seed replayers. FuzzChecks holds what each harness checks,
        // so the seed replay tests run exactly the same checks.
        .target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"),
        .target(name: "FuzzChecks", dependencies: ["TOML", "MatchEngine", "ScanCore", "ScanPipeline", "ScanReport", "Decoders", "AppFormats", "POSIXIO"], path: "Fuzz/FuzzChecks"),
        .executableTarget(name: "TOMLFuzzer", dependencies: ["FuzzChecks", "FuzzDriver"], path: "Fuzz/TOMLFuzzer"),
        .executableTarget(name: "FileScanFuzzer", dependencies: ["FuzzChecks", "FuzzDriver"], path: "Fuzz/FileScanFuzzer"),

        // Builtin rules are embedded at build time, without their examples.
        .executableTarget(name: "EmbedRulesTool", dependencies: ["TOML"], path: "Sources/EmbedRulesTool"),
        .plugin(name: "EmbedRules", capability: .buildTool(), dependencies: ["EmbedRulesTool"]),

        // The command line: one flag parser and one usage error for the three executables.
        .target(name: "CommandLineFlags"),

        // The application: what a command does once its line is parsed (rules and config in
        // their precedence, the report and exit status, the datastore's recording, incremental
        // history), with no global state: a `RunContext` is passed. It never writes to a stream.
        .target(
            name: "Application",
            dependencies: ["CommandLineFlags", "ScanCore", "MatchEngine", "ScanPipeline", "ScanReport", "TOML", "StandardStreams", "Datastore"],
            plugins: ["EmbedRules"]
        ),
        // The executable parses the command line, prints help, and dispatches.
        .executableTarget(
            name: "keyshape",
            dependencies: ["Application", "CommandLineFlags", "ScanCore", "MatchEngine", "ScanPipeline", "ScanReport", "TOML", "StandardStreams", "Datastore"]
        ),

        // Credential store: Secret Service on Linux, Keychain on Apple platforms. Independent
        // of the scanner; the scanner audits it.
        .systemLibrary(name: "CLibSecret", pkgConfig: "libsecret-1",
                       providers: [.apt(["libsecret-1-dev"])]),
        .target(name: "CredentialStore",
                dependencies: [.target(name: "CLibSecret", condition: .when(platforms: [.linux]))]),
        .executableTarget(name: "keyshape-credentials", dependencies: ["CredentialStore", "StandardStreams", "CommandLineFlags"]),

        // Provider client: authenticated requests that never leak the key. Uses the rule
        // engine to redact key-shaped text.
        .target(name: "ProviderClient", dependencies: ["CredentialStore", "MatchEngine"]),
        // With the Swift runtime linked in statically (release builds), FoundationNetworking's
        // libcurl must be named explicitly.
        .executableTarget(name: "byok", dependencies: ["ProviderClient", "CredentialStore", "StandardStreams", "CommandLineFlags"],
                          linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]),

        // Shared by the test targets: running a child process, finding a built executable, reading
        // a JSON report back, seeded random values, run-time keys.
        .target(name: "TestSupport", dependencies: ["TOML"], path: "Tests/TestSupport"),
        .testTarget(name: "POSIXIOTests", dependencies: ["POSIXIO", "TestSupport"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "FuzzChecks", "TestSupport"]),
        .testTarget(name: "GitHistoryTests", dependencies: ["GitHistory", "TestSupport"]),
        .testTarget(name: "ObjectFilesTests", dependencies: ["ObjectFiles", "TestSupport"]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "ScanCore", "TestSupport"]),
        .testTarget(name: "DecodersTests", dependencies: ["Decoders", "CByteMasks", "FuzzChecks", "TestSupport"]),
        .testTarget(name: "AppFormatsTests", dependencies: ["AppFormats", "TestSupport"]),
        .testTarget(name: "MatchEngineTests", dependencies: ["MatchEngine", "ScanCore", "TOML", "TestSupport"]),
        .testTarget(name: "ScanPipelineTests", dependencies: ["ScanPipeline", "Archives", "MatchEngine", "Decoders", "ScanCore", "ScanReport", "FileInputs", "CCrypto", "FuzzChecks", "TestSupport"]),
        .testTarget(name: "ScanReportTests", dependencies: ["ScanReport", "ScanCore", "TestSupport"]),
        .testTarget(name: "DatastoreTests", dependencies: ["Datastore", "ScanCore", "ScanReport", "keyshape", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["keyshape", "Application", "CommandLineFlags", "TestSupport"]),
        .testTarget(name: "ProviderClientTests", dependencies: ["ProviderClient", "CredentialStore", "MatchEngine", "keyshape", "byok", "TestSupport"]),
        .testTarget(name: "CredentialStoreTests", dependencies: ["CredentialStore", "keyshape-credentials", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
