// libFuzzer harness for the binary property list parser (AppFormats). Every input is parsed as that
// format whatever its first bytes say (the parser is driven directly, so mutations of the
// magic number are not wasted), and AppFormatsCheck (AppFormats) checks what comes out:
// strings inside the buffer, in order, places valid, the same answer twice. A trap here is
// a parser bug.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime;
// a separate scratch path keeps the instrumented build apart from the normal one):
//
//   swift build -c release --scratch-path .build/fuzz --product BinaryPlistFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run, with the corpus outside the checkout (the committed seeds stay read-only):
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/BinaryPlistFuzzer "$corpus" Fixtures/fuzz/bplist \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024 -max_len=65536
//
// A failing input is written to ./crash-<sha1>; once fixed, add it to Fixtures/fuzz/bplist/
// so AppFormatsTests/AppFormatsFuzzSeedTests replays it on every test run. A plain build is
// a replay tool (see FuzzDriver): swift build --product BinaryPlistFuzzer && .build/debug/BinaryPlistFuzzer crash-*
import AppFormats
import FuzzDriver

@main
enum BinaryPlistFuzzer {
    static func main() { FuzzDriver.run("BinaryPlistFuzzer") { AppFormatsCheck.problems($0, as: .binaryPlist) } }
}
