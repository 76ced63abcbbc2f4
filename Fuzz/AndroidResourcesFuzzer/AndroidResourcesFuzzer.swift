// libFuzzer harness for the Android binary XML and resource table string pool parser (AppFormats). Every input is parsed as that
// format whatever its first bytes say (the parser is driven directly, so mutations of the
// magic number are not wasted), and AppFormatsCheck (AppFormats) checks what comes out:
// strings inside the buffer, in order, places valid, the same answer twice. A trap here is
// a parser bug.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime;
// a separate scratch path keeps the instrumented build apart from the normal one):
//
//   swift build -c release --scratch-path .build/fuzz --product AndroidResourcesFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run, with the corpus outside the checkout (the committed seeds stay read-only):
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/AndroidResourcesFuzzer "$corpus" Fixtures/fuzz/android \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024 -max_len=65536
//
// A failing input is written to ./crash-<sha1>; once fixed, add it to Fixtures/fuzz/android/
// so AppFormatsTests/AppFormatsFuzzSeedTests replays it on every test run. A plain build is
// a replay tool (see FuzzDriver): swift build --product AndroidResourcesFuzzer && .build/debug/AndroidResourcesFuzzer crash-*
import AppFormats
import FuzzDriver

@main
enum AndroidResourcesFuzzer {
    static func main() { FuzzDriver.run("AndroidResourcesFuzzer") { bytes in [AppFormat.androidXML, .resourceTable].flatMap { AppFormatsCheck.problems(bytes, as: $0) } } }
}
