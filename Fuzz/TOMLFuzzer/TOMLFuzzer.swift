// libFuzzer harness for the TOML reader and the rule and config loader on top of it. What
// one input goes through and what is checked is FuzzChecks/TOMLInputCheck, which the seed
// replay tests run too.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime),
// into its own scratch path so the instrumented build stays apart from the normal one:
//
//   swift build -c release --scratch-path .build/fuzz --product TOMLFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// A release build: optimised Swift keeps its bounds and overflow checks and preconditions,
// and the harness runs faster than a debug build. SwiftPM also links the
// rule-embedding build tool (EmbedRulesTool) with these flags, which fails with a linker
// error; the harness does not use the tool and is built all the same.
//
// Run (generated corpora go outside the repository; the committed seeds stay read-only):
//
//   corpus="$(mktemp -d)"
//   .build/fuzz/release/TOMLFuzzer "$corpus" Fixtures/fuzz/toml \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=2048 -max_len=16384
//
// A failing input is written to ./crash-<sha1> (timeout-, oom- for the others); once fixed,
// add it to Fixtures/fuzz/toml/ so TOMLTests/TOMLFuzzSeedTests replays it on every test run.
// A plain build makes the same target a replay tool (see FuzzDriver), so a crash reproduces
// without libFuzzer:
//
//   swift build --product TOMLFuzzer && .build/debug/TOMLFuzzer crash-* Fixtures/fuzz/toml
import FuzzChecks
import FuzzDriver

@main
enum TOMLFuzzer {
    static func main() { FuzzDriver.run("TOMLFuzzer") { TOMLInputCheck.problems($0) } }
}
