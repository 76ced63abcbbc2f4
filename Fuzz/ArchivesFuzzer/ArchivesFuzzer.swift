// libFuzzer harness for the archive reader (zip, tar with its compressors, ar, nested).
//
// Build (Linux, from the package root), in its own scratch path:
//
//   swift build -c debug --scratch-path .build/fuzz --product ArchivesFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run with the committed seeds (small archives of each kind, made by
// Fixtures/fuzz/make-archive-seeds.sh) and a corpus folder outside the repository:
//
//   mkdir -p /tmp/corpus-archives
//   .build/fuzz/debug/ArchivesFuzzer /tmp/corpus-archives Fixtures/fuzz/archives \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024
//
// A plain build makes the same target a replay tool (FuzzDriver); ArchivesTests replays the
// seeds through `ArchivesFuzzChecks.check` on every test run. The limits are small so each
// input is cheap and the limit paths themselves get explored.
import Archives
import FuzzDriver

@main
enum ArchivesFuzzer {
    /// ArchivesFuzzChecks traps on a problem itself.
    static func main() { FuzzDriver.run("ArchivesFuzzer") { ArchivesFuzzChecks.check($0); return [] } }
}
