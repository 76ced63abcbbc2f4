/// Finds, in one pass over a buffer, which of many literal keywords occur in it,
/// ASCII-case-insensitively. An Aho–Corasick automaton compiled to a DFA whose columns are
/// byte classes (bytes that no keyword uses share one column), so the table stays small
/// enough for L1/L2 and the inner loop is one table load per byte.
public struct KeywordIndex: Sendable {
    /// Transition table, `stateCount * classCount` entries. Each entry is
    /// `nextState << 1 | (nextState has output ? 1 : 0)`, so the hot loop tests one bit.
    private let table: [UInt32]
    let byteClass: [UInt8]   // 256 entries
    private let classCount: Int
    /// For each state with output: the keyword ids that end there (including via suffix links).
    /// Keyword ids ending at each state, flattened: state s owns
    /// `outputIds[outputStart[s]..<outputStart[s + 1]]` (one array, no per-hit retains).
    private let outputIds: [Int32]
    private let outputStart: [Int32]
    public let keywords: [String]
    /// Byte length of the longest keyword.
    public let maxKeywordLength: Int
    /// Byte length of each keyword.
    public let keywordLengths: [Int]

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

        // The trie, then the DFA, in one contiguous preallocated table of `classes` columns,
        // finished in place into the table the hot loop reads: building it as one array per
        // state was 13% of an empty-file scan's instructions with the 555-rule pack, and a
        // second table plus one sized for every keyword byte (8,422 rows where the trie has
        // 5,398) made 3.1 MB of fresh pages to fault in and clear on every start instead of
        // 1.2 MB. The trie has one state per distinct keyword prefix, plus the root: in sorted
        // order, each keyword adds the bytes past what it shares with the one before.
        let sorted = patterns.sorted { $0.lexicographicallyPrecedes($1) }
        var maxStates = 1
        for (i, p) in sorted.enumerated() {
            var shared = 0
            if i > 0 {
                let previous = sorted[i - 1]
                while shared < p.count && shared < previous.count && p[shared] == previous[shared] { shared += 1 }
            }
            maxStates += p.count - shared
        }
        let none = UInt32.max
        var goto = [UInt32](repeating: none, count: maxStates * classes)
        var stateCount = 1
        // Keyword ids ending at each state (not yet via suffix links), as linked lists:
        // `ownHead[state]` is the first id, `ownNext[id]` the one after it.
        var ownHead = [Int32](repeating: -1, count: maxStates)
        var ownNext = [Int32](repeating: -1, count: patterns.count)
        var ownCount = [Int32](repeating: 0, count: maxStates)
        var ends = [Int32](repeating: -1, count: patterns.count)
        goto.withUnsafeMutableBufferPointer { g in
            for (id, p) in patterns.enumerated() where !p.isEmpty {
                var s = 0
                for b in p {
                    let slot = s * classes + Int(classOf[Int(b)])
                    if g[slot] == none {
                        g[slot] = UInt32(stateCount)
                        stateCount += 1
                    }
                    s = Int(g[slot])
                }
                ends[id] = Int32(s)
            }
        }
        // Linked in reverse, so each state lists its keywords in id order.
        for id in patterns.indices.reversed() where ends[id] >= 0 {
            let s = Int(ends[id])
            ownNext[id] = ownHead[s]
            ownHead[s] = Int32(id)
            ownCount[s] += 1
        }

        // Breadth-first failure links, folded straight into a complete DFA. A state's
        // failure target is shallower, so it is done before the state itself: `order` lists
        // states as they are finished, and the outputs below are filled in that order.
        var fail = [Int32](repeating: 0, count: stateCount)
        var order = [Int32](repeating: 0, count: stateCount)
        var outCount = [Int32](repeating: 0, count: stateCount)
        goto.withUnsafeMutableBufferPointer { g in
            var tail = 1
            for c in 0..<classes {
                let t = g[c]
                if t == none { g[c] = 0 } else { order[tail] = Int32(t); tail += 1 }
            }
            var head = 1
            while head < tail {
                let s = Int(order[head]); head += 1
                let f = Int(fail[s])
                outCount[s] = ownCount[s] + outCount[f]
                let row = s * classes, failRow = f * classes
                for c in 0..<classes {
                    let t = g[row + c]
                    if t == none {
                        g[row + c] = g[failRow + c]
                    } else {
                        fail[Int(t)] = Int32(g[failRow + c])
                        order[tail] = Int32(t); tail += 1
                    }
                }
            }
        }

        // Outputs, flattened: each state's own keywords, then its failure target's outputs.
        var starts = [Int32](repeating: 0, count: stateCount + 1)
        for s in 0..<stateCount { starts[s + 1] = starts[s] + outCount[s] }
        var ids = [Int32](repeating: 0, count: Int(starts[stateCount]))
        for s in order.dropFirst().map(Int.init) {
            var at = Int(starts[s])
            var id = ownHead[s]
            while id >= 0 { ids[at] = id; at += 1; id = ownNext[Int(id)] }
            let f = Int(fail[s])
            for o in Int(starts[f])..<Int(starts[f + 1]) { ids[at] = ids[o]; at += 1 }
        }

        // Each entry becomes the hot loop's: the target pre-multiplied by the row width (the
        // loop adds, never multiplies), shifted, with the output bit. Every row below
        // `stateCount` is complete now; rows past it (none, when the count above is exact)
        // are dropped.
        goto.removeSubrange((stateCount * classes)...)
        goto.withUnsafeMutableBufferPointer { g in
            for i in g.indices {
                let t = Int(g[i])
                g[i] = UInt32(t * classes) << 1 | (outCount[t] == 0 ? 0 : 1)
            }
        }
        table = goto
        byteClass = classOf
        maxKeywordLength = patterns.map(\.count).max() ?? 1
        keywordLengths = patterns.map(\.count)
        classCount = classes
        outputIds = ids
        outputStart = starts
    }

    @inline(__always) static func fold(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

    /// Calls `hit(keywordId, end)` for every occurrence of every keyword, `end` being the
    /// offset just past it. Occurrences come in no particular order; one found by two
    /// streams (inside the overlap past a split) is reported once.
    public func forEachHit(_ buffer: UnsafeRawBufferPointer, _ hit: (Int, Int) -> Void) {
        guard !keywords.isEmpty, buffer.count > 0 else { return }
        let n = buffer.count
        let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let k = classCount
        table.withUnsafeBufferPointer { tablePtr in
            byteClass.withUnsafeBufferPointer { classPtr in
                let t = tablePtr.baseAddress!, cls = classPtr.baseAddress!
                func emit(_ entry: UInt32, at index: Int) {
                    let state = Int(entry >> 1) / k
                    for o in Int(outputStart[state])..<Int(outputStart[state + 1]) { hit(Int(outputIds[o]), index + 1) }
                }
                var quarter = 0
                if n >= 1024 {
                    quarter = n / 4
                    var states: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                    var i = 0
                    while i < quarter {
                        i = KeywordIndex.step4(t, cls, p, quarter, from: i, to: quarter, &states)
                        if i < quarter {
                            if states.0 & 1 != 0 { emit(states.0, at: i) }
                            if states.1 & 1 != 0 { emit(states.1, at: quarter + i) }
                            if states.2 & 1 != 0 { emit(states.2, at: 2 * quarter + i) }
                            if states.3 & 1 != 0 { emit(states.3, at: 3 * quarter + i) }
                            i += 1
                        }
                    }
                    let finals = [states.0, states.1, states.2, states.3]
                    for stream in 0..<4 {
                        var s = finals[stream]
                        var j = (stream + 1) * quarter
                        let end = stream == 3 ? n : min(n, j + maxKeywordLength - 1)
                        while j < end {
                            j = KeywordIndex.step1(t, cls, p, from: j, to: end, &s)
                            if j < end {
                                // Past a split, only keywords that began before it are this
                                // stream's; the next stream reports the others.
                                let state = Int(s >> 1) / k
                                for o in Int(outputStart[state])..<Int(outputStart[state + 1]) {
                                    let id = Int(outputIds[o])
                                    if stream == 3 || j + 1 - keywordLengths[id] < (stream + 1) * quarter { hit(id, j + 1) }
                                }
                                j += 1
                            }
                        }
                    }
                } else {
                    var s: UInt32 = 0
                    var j = 0
                    while j < n {
                        j = KeywordIndex.step1(t, cls, p, from: j, to: n, &s)
                        if j < n { emit(s, at: j); j += 1 }
                    }
                }
            }
        }
    }

    /// Runs four streams at `p`, `p + stride`, `p + 2*stride`, `p + 3*stride` from offset
    /// `from` until one reaches a state with output (returns that offset) or `to`.
    @inline(never)
    static func step4(_ t: UnsafePointer<UInt32>, _ cls: UnsafePointer<UInt8>, _ p: UnsafePointer<UInt8>, _ stride: Int,
                      from: Int, to: Int, _ states: inout (UInt32, UInt32, UInt32, UInt32)) -> Int {
        var (s0, s1, s2, s3) = states
        let p0 = p, p1 = p + stride, p2 = p + 2 * stride, p3 = p + 3 * stride
        var i = from
        while i < to {
            s0 = t[Int(truncatingIfNeeded: s0 >> 1) &+ Int(truncatingIfNeeded: cls[Int(truncatingIfNeeded: p0[i])])]
            s1 = t[Int(truncatingIfNeeded: s1 >> 1) &+ Int(truncatingIfNeeded: cls[Int(truncatingIfNeeded: p1[i])])]
            s2 = t[Int(truncatingIfNeeded: s2 >> 1) &+ Int(truncatingIfNeeded: cls[Int(truncatingIfNeeded: p2[i])])]
            s3 = t[Int(truncatingIfNeeded: s3 >> 1) &+ Int(truncatingIfNeeded: cls[Int(truncatingIfNeeded: p3[i])])]
            if (s0 | s1 | s2 | s3) & 1 != 0 { break }
            i &+= 1
        }
        states = (s0, s1, s2, s3)
        return i
    }

    @inline(never)
    static func step1(_ t: UnsafePointer<UInt32>, _ cls: UnsafePointer<UInt8>, _ p: UnsafePointer<UInt8>,
                      from: Int, to: Int, _ state: inout UInt32) -> Int {
        var s = state
        var i = from
        while i < to {
            s = t[Int(truncatingIfNeeded: s >> 1) &+ Int(truncatingIfNeeded: cls[Int(truncatingIfNeeded: p[i])])]
            if s & 1 != 0 { break }
            i &+= 1
        }
        state = s
        return i
    }
}
