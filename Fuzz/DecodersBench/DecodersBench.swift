// Throughput of the decoders on a real corpus, run by hand (a timed unit test would only
// measure the machine's load):
//
//   swift build -c release --product DecodersBench
//   .build/release/DecodersBench /usr/lib/python3/dist-packages Sources
//   .build/release/DecodersBench --pass [--rounds 10] /usr/lib/python3/dist-packages
//
// Reads every regular text file (no NUL in its first 8 KiB) under the folders given (up to 512 MiB in all, in path
// order) into memory, then times (CPU time of the thread) three passes of the one-level candidate finder and of nested
// decoding at the default depth, and prints MB/s (the median pass) with the spans found. With `--pass`, the C pass
// alone at each tier instead (`PassTiming`).
import Decoders
import Foundation

@main
enum DecodersBench {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let passOnly = arguments.first == "--pass"
        if passOnly { arguments.removeFirst() }
        var rounds = 10
        if arguments.first == "--rounds", arguments.count > 1, let r = Int(arguments[1]), r >= 1 {
            rounds = r
            arguments.removeFirst(2)
        }
        var buffers: [[UInt8]] = []
        var total = 0
        for root in arguments {
            guard let walk = FileManager.default.enumerator(at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            // In path order: the same tree gives the same buffers in the same order (`--pass`
            // hashes compare across builds).
            let urls = walk.compactMap { $0 as? URL }.sorted { $0.path < $1.path }
            for url in urls where total < 512 << 20 {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                      let data = try? Data(contentsOf: url) else { continue }
                let bytes = [UInt8](data)
                // Text only, as the scanner decodes: a NUL in the first 8 KiB makes a file binary.
                if bytes.prefix(8192).contains(0) { continue }
                buffers.append(bytes)
                total += data.count
            }
        }
        print("\(buffers.count) files, \(total) bytes")
        if total == 0 { return }
        if passOnly {
            PassTiming.run(buffers, total: total, rounds: rounds)
            return
        }

        var finder = SpanFinder()
        var spanCount = 0
        let finderTimes = (0..<3).map { _ in
            time {
                spanCount = 0
                for buffer in buffers {
                    var budget = DecodeBudget(maxDepth: 1, bufferSize: buffer.count)
                    var spans: [DecodedSpan] = []
                    buffer.withUnsafeBytes { finder.find($0, keepBinary: false, budget: &budget, into: &spans) }
                    spanCount += spans.count
                }
            }
        }
        var binaryKept = 0
        for buffer in buffers {
            var budget = DecodeBudget(maxDepth: 2, bufferSize: buffer.count)
            var spans: [DecodedSpan] = []
            buffer.withUnsafeBytes { finder.find($0, keepBinary: true, budget: &budget, into: &spans) }
            binaryKept += spans.filter { !$0.isText }.count
        }
        print("spans kept only to search inside (depth 1 of 2): \(binaryKept)")
        var decoder = NestedDecoder()
        var textCount = 0, textBytes = 0
        let nestedTimes = (0..<3).map { _ in
            time {
                textCount = 0; textBytes = 0
                for buffer in buffers {
                    var budget = DecodeBudget(bufferSize: buffer.count)
                    var texts: [DecodedText] = []
                    buffer.withUnsafeBytes { decoder.decode($0, budget: &budget, into: &texts) }
                    textCount += texts.count
                    textBytes += texts.reduce(0) { $0 + $1.bytes.count }
                }
            }
        }
        func rate(_ times: [Double]) -> String {
            let median = times.sorted()[1]
            return String(format: "%.0f MB/s (median %.3f s; runs %@)", Double(total) / 1e6 / median, median,
                          times.map { String(format: "%.3f", $0) }.joined(separator: ", "))
        }
        print("finder (depth 1):  \(rate(finderTimes)), \(spanCount) text spans")
        print("nested (depth \(DecodeBudget.defaultDepth)): \(rate(nestedTimes)), \(textCount) texts, \(textBytes) decoded bytes")
    }

    /// CPU seconds of this thread, not wall time: the machine may be shared, and a busy
    /// neighbour should not make the decoders look slower than they are.
    static func time(_ body: () -> Void) -> Double {
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }
}
