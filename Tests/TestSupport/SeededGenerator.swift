/// The test targets' one seeded generator (SplitMix64): a fixed seed gives the same sequence
/// on every machine and every run, so a randomised test that fails names a case that
/// reproduces. Fast in a debug build (three multiplications a draw), which matters where a
/// test draws millions of values (1.4 million tokens in the placeholder test, 10 MiB of
/// noise in the decoders' hostile test).
///
/// The helpers map draws to values by a fixed rule (a draw modulo the bound, eight bytes a
/// draw) rather than through `Int.random(in:using:)` and `randomElement(using:)`, whose
/// algorithms the standard library does not promise to keep: a seed keeps its cases across
/// toolchains. The modulo's bias (a share of bound / 2^64) is nothing a test can see.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An Int in `0..<bound`; `bound` must be positive.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(\(bound)): the bound must be positive")
        return Int(next() % UInt64(bound))
    }

    /// An Int in `range`, which must not be empty.
    public mutating func int(in range: Range<Int>) -> Int { range.lowerBound + below(range.count) }

    /// An Int in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// One of `items`, which must not be empty.
    public mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element {
        items[items.index(items.startIndex, offsetBy: below(items.count))]
    }

    /// `count` bytes, eight from each draw (least significant first).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var at = 0
            while at < count {
                var word = next()
                for _ in 0..<Swift.min(8, count - at) {
                    buffer[at] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    at += 1
                }
            }
            initialized = count
        }
    }
}
