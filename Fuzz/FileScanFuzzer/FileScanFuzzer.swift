// libFuzzer harness for the whole per-file scan: sniff (text or binary), object-file layout
// (Mach-O, fat, ELF maps), printable runs, UTF-16 runs, keyword prefilter and PCRE2 matching
// with the builtin rule pack, positions, secret hashes and reports. What one input goes
// through, why it is a file on disk rather than a buffer, and what is checked is
// FuzzChecks/FileScanCheck, which the seed replay tests run too.
//
// The rule pack is the checkout's Rules/*.toml, loaded once at start (KEYSHAPE_FUZZ_RULES
// names another folder); the harness refuses to run without rules.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime),
// into its own scratch path so the instrumented build stays apart from the normal one:
//
//   swift build -c release --scratch-path .build/fuzz --product FileScanFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// A release build: optimised Swift keeps its bounds and overflow checks and preconditions,
// and the harness runs faster than a debug build. SwiftPM also links the
// rule-embedding build tool (EmbedRulesTool) with these flags, which fails with a linker
// error; the harness does not use the tool and is built all the same.
//
// Run: the committed seeds are text, binaries and UTF-16 holding the rule pack's own
// (fake) examples, and the planted object files of the object-file seeds, so libFuzzer
// starts where rules fire. -timeout=10 bounds a slow input (the rule patterns are bounded by
// PCRE2's match limit, so none should come near it). Generated corpora go outside the
// repository; the committed seeds stay read-only:
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/FileScanFuzzer "$corpus" Fixtures/fuzz/files \
//       Fixtures/fuzz/macho Fixtures/fuzz/elf \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=2048 -max_len=65536
//
// A failing input is written to ./crash-<sha1> (timeout-, oom- for the others); once fixed,
// add it to Fixtures/fuzz/files/ so ScanPipelineTests/FileScanFuzzSeedTests replays it on every
// test run. A plain build makes the same target a replay tool (see FuzzDriver), so a crash
// reproduces without libFuzzer:
//
//   swift build --product FileScanFuzzer && .build/debug/FileScanFuzzer crash-* Fixtures/fuzz/files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzChecks
import FuzzDriver

@main
enum FileScanFuzzer {
    /// Made before the driver starts, so loading the pack is not timed as an input.
    nonisolated(unsafe) static var check: FileScanCheck!

    /// A stored property, not a local of main: main never returns, so the optimiser may drop
    /// a local's release, and LeakSanitizer would report the string as leaked.
    static let rules = getenv("KEYSHAPE_FUZZ_RULES").map { String(cString: $0) } ?? defaultRules

    static func main() {
        do {
            check = try FileScanCheck(rulesFolder: rules)
        } catch {
            fputs("FileScanFuzzer: \(error)\n", stderr)
            exit(2)
        }
        // libFuzzer ends a run with exit(), never returning here.
        atexit { FileScanFuzzer.check?.remove() }
        FuzzDriver.run("FileScanFuzzer") { check.problems($0) }
    }

    /// Rules/ of the checkout this harness was built from.
    static var defaultRules: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Fuzz/FileScanFuzzer/FileScanFuzzer.swift
        return parts.joined(separator: "/") + "/Rules"
    }
}
