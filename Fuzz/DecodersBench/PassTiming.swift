import CByteMasks
import Decoders

/// `DecodersBench --pass`: the candidate search's C pass alone (`keyshape_find_runs_with`
/// and `keyshape_stop_words_with`, no Swift walk, no decoding), as the first level of the
/// default depth runs it (binary spans kept to search inside), each tier this processor runs
/// in turn over the same buffers, so that a change to the C code can be timed without the
/// rest of the finder around it and its output compared with another build's.
///
/// Prints per tier the fastest of the rounds (CPU time of the thread: a busy neighbour slows
/// a round, never speeds it up), the runs listed, and an FNV-1a hash of everything the pass
/// gives the walk (the run and stop bitmaps, the run list, the stop words): every tier must
/// print the same hash, and a change that keeps the pass's results keeps it too.
enum PassTiming {
    static func run(_ buffers: [[UInt8]], total: Int, rounds: Int) {
        let largest = buffers.map(\.count).max() ?? 0
        let words = keyshape_masks_words(largest)
        var masks = [UInt64](repeating: 0, count: 4 * words)
        var runs = [keyshape_run_candidate](repeating: keyshape_run_candidate(), count: largest / 16 + 1)
        var stopWords = [UInt32](repeating: 0, count: words)
        masks.withUnsafeMutableBufferPointer { m in
            runs.withUnsafeMutableBufferPointer { r in
                stopWords.withUnsafeMutableBufferPointer { s in
                    for tier in SpanFinder.availableTiers {
                        timeTier(tier, buffers, total: total, rounds: rounds, masks: m.baseAddress!, runs: r.baseAddress!, stopWords: s.baseAddress!)
                    }
                }
            }
        }
    }

    /// One tier: the storage is the caller's, so the rounds timed hold the pass and the loop
    /// over the buffers, nothing else.
    static func timeTier(_ tier: Int32, _ buffers: [[UInt8]], total: Int, rounds: Int, masks: UnsafeMutablePointer<UInt64>,
                     runs: UnsafeMutablePointer<keyshape_run_candidate>, stopWords: UnsafeMutablePointer<UInt32>) {
        var best = Double.infinity
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var listed = 0
        // Round 0 hashes the output and is not timed; rounds 1 to `rounds` are.
        for round in 0...rounds {
            let first = round == 0
            let seconds = DecodersBench.time {
                for buffer in buffers {
                    buffer.withUnsafeBufferPointer { b in
                        let n = b.count, w = keyshape_masks_words(n)
                        let count = keyshape_find_runs_with(tier, b.baseAddress, n, 1, masks, masks + w, masks + 2 * w, runs)
                        let stopCount = keyshape_stop_words_with(tier, masks + w, w, stopWords)
                        if first {
                            listed += count
                            for k in 0..<count { mix(&hash, runs[k].start); mix(&hash, runs[k].end); mix(&hash, UInt64(runs[k].flags)) }
                            for k in 0..<2 * w { mix(&hash, masks[k]) }
                            for k in 0..<stopCount { mix(&hash, UInt64(stopWords[k])) }
                        }
                    }
                }
            }
            if !first { best = min(best, seconds) }
        }
        let name = ["scalar", "SSE2", "AVX2", "AVX-512"][Int(tier)]
        print("tier \(tier) (\(name)): best \(String(format: "%.4f", best)) s (\(String(format: "%.0f", Double(total) / 1e6 / best)) MB/s) of \(rounds) rounds, \(listed) runs listed, hash \(String(hash, radix: 16))")
    }

    static func mix(_ hash: inout UInt64, _ value: UInt64) {
        hash = (hash ^ value) &* 0x100_0000_01b3
    }
}
