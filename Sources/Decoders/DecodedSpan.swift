/// One encoded span of a buffer and what it decodes to (one level of decoding).
///
/// Only the source range is kept, not a byte-by-byte offset map: a finding in decoded text
/// is reported at the whole encoded span (the contract's "Locations"), so nothing needs to
/// map a decoded offset back to a source offset.
public struct DecodedSpan: Sendable, Equatable {
    public var encoding: Encoding
    /// The encoded text in the buffer searched (for a quoted literal, inside the quotes; for
    /// a `data:` URI, its payload after the comma).
    public var sourceRange: Range<Int>
    public var bytes: [UInt8]
    /// Whether `bytes` look like text (`TextCheck`); a binary span is only kept when the
    /// caller asked for spans to search for nested encodings.
    public var isText: Bool

    public init(encoding: Encoding, sourceRange: Range<Int>, bytes: [UInt8], isText: Bool) {
        self.encoding = encoding
        self.sourceRange = sourceRange
        self.bytes = bytes
        self.isText = isText
    }
}

/// Text decoded from a top-level buffer, possibly through several encodings.
public struct DecodedText: Sendable, Equatable {
    /// Outer encoding first: base64 of a percent-encoded string is `[.base64, .percent]`.
    public var encodings: [Encoding]
    /// The outermost encoded span in the top-level buffer: where a finding in `bytes` is reported.
    public var sourceRange: Range<Int> { levelRanges[0] }
    /// Each level's encoded span, outer first: the first in the top-level buffer, each
    /// other in the bytes the level before it decoded to.
    public var levelRanges: [Range<Int>]
    public var bytes: [UInt8]

    public init(encodings: [Encoding], levelRanges: [Range<Int>], bytes: [UInt8]) {
        precondition(!levelRanges.isEmpty && levelRanges.count == encodings.count)
        self.encodings = encodings
        self.levelRanges = levelRanges
        self.bytes = bytes
    }
}
