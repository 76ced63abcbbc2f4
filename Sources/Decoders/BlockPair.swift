/// Two 8-byte blocks of the candidate walk classified in one 16-byte vector test: whether
/// each is skippable outright (not 8 base64 characters with an upper-case letter or a digit
/// among them, and no `%`, backslash or colon), or holds one of those three bytes and needs
/// `Pass.skippable`'s exact test of what follows it.
///
/// Only wrapping arithmetic, comparisons and bitwise operations on `SIMD16<UInt8>`, which the
/// compiler lowers to SSE2 (`pcmpeqb`, `psubb`, `pminub`); `pointwiseMin` stayed a call and
/// halved the speed. The two halves are read back as two `UInt64` masks and combined without
/// branches: a branch per half, mispredicted on one block in six, cost a third of the time.
enum BlockPair {
    static let firstSkippable = 1
    static let secondSkippable = 2
    static let bothSkippable = 3
    static let firstNeedsCheck = 4
    static let secondNeedsCheck = 8

    typealias Lanes = SIMD16<UInt8>

    /// The caller makes sure 16 bytes are there from `at`.
    @inline(__always)
    static func classify(_ raw: UnsafeRawPointer, at: Int) -> Int {
        let x = raw.loadUnaligned(fromByteOffset: at, as: Lanes.self)
        // Letters of either case: `x | 0x20` in `a...z` (no other byte lands there).
        let letter = ((x | Lanes(repeating: 0x20)) &- Lanes(repeating: 0x61)) .< Lanes(repeating: 26)
        let digit = (x &- Lanes(repeating: 0x30)) .< Lanes(repeating: 10)
        let upper = letter .& ((x & Lanes(repeating: 0x20)) .== Lanes(repeating: 0))
        let sign = (x .== Lanes(repeating: 0x2B)) .| (x .== Lanes(repeating: 0x2F)) .| (x .== Lanes(repeating: 0x2D))
            .| (x .== Lanes(repeating: 0x5F))
        let base64 = unsafeBitCast(letter .| digit .| sign, to: SIMD2<UInt64>.self)
        let strong = unsafeBitCast(upper .| digit, to: SIMD2<UInt64>.self)
        let trigger = unsafeBitCast((x .== Lanes(repeating: 0x25)) .| (x .== Lanes(repeating: 0x5C)) .| (x .== Lanes(repeating: 0x3A)),
                                    to: SIMD2<UInt64>.self)
        // A block is kept (not skippable) when all 8 are base64 characters and one is strong.
        let kept0 = (base64[0] == ~0 ? 1 : 0) & (strong[0] != 0 ? 1 : 0)
        let kept1 = (base64[1] == ~0 ? 1 : 0) & (strong[1] != 0 ? 1 : 0)
        let trigger0 = trigger[0] != 0 ? 1 : 0, trigger1 = trigger[1] != 0 ? 1 : 0
        let open0 = 1 &- kept0, open1 = 1 &- kept1
        return (open0 & (1 &- trigger0)) | (open1 & (1 &- trigger1)) << 1 | (open0 & trigger0) << 2 | (open1 & trigger1) << 3
    }
}
