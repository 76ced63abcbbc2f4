// libFuzzer harness for the ObjectFiles parsers (Mach-O thin and fat, ELF) and UTF16Text, the
// UTF-16 extractor the scanner runs.
//
// Build (Linux, from the package root; libFuzzer ships with the toolchain's clang runtime).
// A separate scratch path keeps the instrumented build apart from the normal one:
//
//   swift build -c debug --scratch-path .build/fuzz --product ObjectFilesFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKEYSHAPE_LIBFUZZER
//
// Run: one harness serves both formats; the seed corpus decides which parser libFuzzer
// explores (a mutation that breaks the magic number falls to the trivial raw path and is not
// kept). Generated corpora go outside the repository; the committed seeds stay read-only.
//
//   mkdir -p /tmp/corpus-macho /tmp/corpus-elf
//   .build/fuzz/debug/ObjectFilesFuzzer /tmp/corpus-macho Fixtures/fuzz/macho \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024
//   .build/fuzz/debug/ObjectFilesFuzzer /tmp/corpus-elf Fixtures/fuzz/elf \
//       -max_total_time=600 -timeout=10 -rss_limit_mb=1024
//
// A failing input is written to ./crash-<sha1>; once fixed, add it to Fixtures/fuzz/<format>/
// so ObjectFilesTests/FuzzSeedReplayTests replays it on every test run.
//
// Why an @main that calls LLVMFuzzerRunDriver instead of letting libFuzzer's own main run:
// SwiftPM links every executable with `--defsym main=<Target>_main` (testable executables),
// so a harness without an entry point fails to link ("undefined symbol
// ObjectFilesFuzzer_main", swiftlang/swift#75800), and `-parse-as-library` alone does not
// help. An @main makes SwiftPM parse the file as a library and emit that symbol; under
// KEYSHAPE_LIBFUZZER it hands control to libFuzzer's driver, exactly as libFuzzer's main
// would. Without the flag the same target is a plain replay tool that runs each file given
// on the command line through the harness, so a plain `swift build` of the package links,
// and crash inputs can be reproduced without libFuzzer:
//
//   swift build --product ObjectFilesFuzzer && .build/debug/ObjectFilesFuzzer crash-*
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ObjectFiles

import FuzzDriver

@main
enum ObjectFilesFuzzer {
    /// libFuzzer's driver under KEYSHAPE_LIBFUZZER, else a replay of the files and folders
    /// given (FuzzDriver, shared with every harness).
    static func main() { FuzzDriver.run("ObjectFilesFuzzer") { check($0); return [] } }
}

/// The checks below trap on a problem themselves (preconditions).
private func check(_ bytes: [UInt8]) {
    let size = bytes.count
    let source = MemoryByteSource(bytes)
    _ = ObjectFileParser.sniff(Array(bytes.prefix(ObjectFileParser.sniffLength)))

    if let map = try? ObjectFileParser.parse(source) {
        checkInvariants(map, size: size)
    }

    var decoded: [UInt8] = []
    var runs: [UTF16Text.Run] = []
    bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: 4, into: &decoded, runs: &runs) }
    checkUTF16Runs(runs, decoded: decoded, bytes: bytes)
    // The default minimum takes the other fast path (words whose zeros alternate): its runs
    // are exactly those of the first pass that are long enough.
    var longDecoded: [UInt8] = []
    var longRuns: [UTF16Text.Run] = []
    bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: 8, into: &longDecoded, runs: &longRuns) }
    checkUTF16Runs(longRuns, decoded: longDecoded, bytes: bytes)
    precondition(longRuns.map(\.sourceOffset) == runs.filter { $0.decodedRange.count >= 8 }.map(\.sourceOffset))
}

/// What the scanner relies on: runs in source order, not overlapping, at least the minimum
/// long, each followed by its newline, and every decoded byte the text byte of a code unit
/// in the input (little-endian: the byte before the unit's zero; big-endian: after it).
private func checkUTF16Runs(_ runs: [UTF16Text.Run], decoded: [UInt8], bytes: [UInt8]) {
    var sourceEnd = 0, decodedEnd = 0
    for run in runs {
        precondition(run.decodedRange.count >= 4 && run.decodedRange.lowerBound == decodedEnd)
        precondition(run.sourceOffset >= sourceEnd)
        precondition(decoded[run.decodedRange.upperBound] == 0x0A)
        decodedEnd = run.decodedRange.upperBound + 1
        sourceEnd = run.sourceOffset + 2 * run.decodedRange.count
        precondition(sourceEnd <= bytes.count)
        for index in run.decodedRange {
            let unit = run.sourceOffset(ofDecoded: index)
            let (lo, hi, text) = (bytes[unit], bytes[unit + 1], decoded[index])
            precondition(text == 0x09 || (0x20...0x7e).contains(text))
            precondition((hi == 0 && lo == text) || (lo == 0 && hi == text))
        }
    }
    precondition(decodedEnd == decoded.count)
}

/// What the scanner relies on: every region lies inside its slice and the file, and locate
/// answers for any offset without trapping and only with a region that holds the offset.
private func checkInvariants(_ map: ObjectMap, size: Int) {
    for slice in map.slices {
        precondition(slice.fileRange.lowerBound >= 0 && slice.fileRange.upperBound <= size)
        for region in slice.sections + slice.segments {
            precondition(!region.fileRange.isEmpty)
            precondition(region.fileRange.lowerBound >= slice.fileRange.lowerBound)
            precondition(region.fileRange.upperBound <= slice.fileRange.upperBound)
        }
        precondition(zip(slice.sections, slice.sections.dropFirst()).allSatisfy {
            $0.fileRange.lowerBound <= $1.fileRange.lowerBound
        })
    }
    // Probe region edges plus a stride through the file.
    var probes = [-1, 0, size - 1, size]
    for slice in map.slices {
        for region in slice.sections + slice.segments {
            probes += [region.fileRange.lowerBound, region.fileRange.upperBound - 1, region.fileRange.upperBound]
        }
    }
    probes += stride(from: 0, to: size, by: max(1, size / 64))
    for offset in probes {
        guard let hit = map.locate(offset) else { continue }
        precondition(hit.slice.fileRange.contains(offset))
        if let region = hit.region {
            precondition(region.fileRange.contains(offset))
        }
    }
}
