/// Finds, in one pass over a buffer, which of many literal keywords occur in it,
/// ASCII-case-insensitively. An Aho–Corasick automaton compiled to a DFA whose columns are
/// byte classes (bytes that no keyword uses share one column), so the table stays small
/// enough for L1/L2 and the inner loop is one table load per byte.
public struct KeywordIndex: Sendable {
    /// Transition table, `stateCount * classCount` entries. Each entry is
    /// `nextState << 1 | (nextState has output ? 1 : 0)`, so the hot loop tests one bit.
    private let table: [UInt32]
    private let byteClass: [UInt8]   // 256 entries
    private let classCount: Int
    /// For each state with output: the keyword ids that end there (including via suffix links).
    private let outputs: [[Int32]]
    public let keywords: [String]

    public init(keywords: [String]) {
        self.keywords = keywords
        let patterns: [[UInt8]] = keywords.map { Array($0.utf8).map(KeywordIndex.fold) }

        // Byte classes: one per distinct (folded) byte used by any keyword, plus "other".
        var classOf = [UInt8](repeating: 0, count: 256)
        var next: Int = 1
        for p in patterns { for b in p where classOf[Int(b)] == 0 { classOf[Int(b)] = UInt8(truncatingIfNeeded: next); next += 1 } }
        // More than 255 distinct bytes cannot happen after folding (at most 230), but stay safe.
        precondition(next <= 256)
        for b in 0..<256 { classOf[b] = classOf[Int(KeywordIndex.fold(UInt8(b)))] }
        let classes = next

        // Trie.
        var goto: [[Int32]] = [[Int32](repeating: -1, count: classes)]
        var out: [[Int32]] = [[]]
        for (id, p) in patterns.enumerated() where !p.isEmpty {
            var s = 0
            for b in p {
                let c = Int(classOf[Int(b)])
                if goto[s][c] < 0 {
                    goto.append([Int32](repeating: -1, count: classes))
                    out.append([])
                    goto[s][c] = Int32(goto.count - 1)
                }
                s = Int(goto[s][c])
            }
            out[s].append(Int32(id))
        }

        // Breadth-first failure links, folded straight into a complete DFA.
        var fail = [Int](repeating: 0, count: goto.count)
        var queue: [Int] = []
        for c in 0..<classes {
            let t = goto[0][c]
            if t < 0 { goto[0][c] = 0 } else { fail[Int(t)] = 0; queue.append(Int(t)) }
        }
        var head = 0
        while head < queue.count {
            let s = queue[head]; head += 1
            out[s].append(contentsOf: out[fail[s]])
            for c in 0..<classes {
                let t = goto[s][c]
                if t < 0 {
                    goto[s][c] = goto[fail[s]][c]
                } else {
                    fail[Int(t)] = Int(goto[fail[s]][c])
                    queue.append(Int(t))
                }
            }
        }

        var flat = [UInt32](repeating: 0, count: goto.count * classes)
        for s in 0..<goto.count {
            for c in 0..<classes {
                let t = Int(goto[s][c])
                flat[s * classes + c] = UInt32(t) << 1 | (out[t].isEmpty ? 0 : 1)
            }
        }
        table = flat
        byteClass = classOf
        classCount = classes
        outputs = out
    }

    @inline(__always) static func fold(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

    /// Calls `found` once for every keyword id that occurs in `buffer` (each at most once,
    /// using `seen` to remember; `seen` must have `keywords.count` entries).
    /// Returns early once every keyword has been seen.
    public func scan(_ buffer: UnsafeRawBufferPointer, seen: inout [Bool], found: (Int) -> Void) {
        guard !keywords.isEmpty, buffer.count > 0 else { return }
        var remaining = seen.lazy.filter { !$0 }.count
        if remaining == 0 { return }
        table.withUnsafeBufferPointer { tablePtr in
            byteClass.withUnsafeBufferPointer { classPtr in
                let t = tablePtr.baseAddress!, cls = classPtr.baseAddress!
                let bytes = buffer.assumingMemoryBound(to: UInt8.self)
                let n = bytes.count
                let p = bytes.baseAddress!
                let k = classCount
                var state: UInt32 = 0
                var i = 0
                while i < n {
                    let entry = t[Int(state) &* k &+ Int(cls[Int(p[i])])]
                    state = entry >> 1
                    if entry & 1 != 0 {
                        for id in outputs[Int(state)] where !seen[Int(id)] {
                            seen[Int(id)] = true
                            found(Int(id))
                            remaining -= 1
                        }
                        if remaining == 0 { return }
                    }
                    i &+= 1
                }
            }
        }
    }
}
