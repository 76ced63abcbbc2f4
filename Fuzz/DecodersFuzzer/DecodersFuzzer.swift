// libFuzzer harness for the Decoders module (the candidate finder, every decoder, nested
// decoding under a budget). What one input goes through and what is checked is
// FuzzChecks/DecodersCheck, which DecodersTests/DecodersFuzzSeedTests runs too.
//
// Build (Linux, from the package root), into its own scratch path:
//
//   swift build -c release --scratch-path .build/fuzz --product DecodersFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run (generated corpora go outside the repository; the committed seeds stay read-only):
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/DecodersFuzzer "$corpus" Fixtures/fuzz/decoders \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=2048 -max_len=65536
//
// A failing input is written to ./crash-<sha1>; once fixed, add it to Fixtures/fuzz/decoders/.
// A plain build makes the same target a replay tool (see FuzzDriver):
//
//   swift build --product DecodersFuzzer && .build/debug/DecodersFuzzer crash-* Fixtures/fuzz/decoders
import FuzzChecks
import FuzzDriver

@main
enum DecodersFuzzer {
    static func main() { FuzzDriver.run("DecodersFuzzer") { DecodersCheck.problems($0) } }
}
