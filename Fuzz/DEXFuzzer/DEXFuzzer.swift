// libFuzzer harness for the DEX string table parser (AppFormats). Every input is parsed as that
// format whatever its first bytes say (the parser is driven directly, so mutations of the
// magic number are not wasted), and AppFormatsCheck (AppFormats) checks what comes out:
// strings inside the buffer, in order, places valid, the same answer twice. A trap here is
// a parser bug.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime;
// a separate scratch path keeps the instrumented build apart from the normal one):
//
//   swift build -c release --scratch-path .build/fuzz --product DEXFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run, with the corpus outside the checkout (the committed seeds stay read-only):
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/DEXFuzzer "$corpus" Fixtures/fuzz/dex \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024 -max_len=65536
//
// A failing input is written to ./crash-<sha1>; once fixed, add it to Fixtures/fuzz/dex/
// so AppFormatsTests/AppFormatsFuzzSeedTests replays it on every test run. A plain build is
// a replay tool (see FuzzDriver): swift build --product DEXFuzzer && .build/debug/DEXFuzzer crash-*
import AppFormats
import FuzzDriver

@main
enum DEXFuzzer {
    static func main() { FuzzDriver.run("DEXFuzzer") { AppFormatsCheck.problems($0, as: .dex) } }
}
