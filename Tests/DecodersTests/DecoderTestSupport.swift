import Decoders
import Foundation
import TestSupport

/// Decoding helpers for the tests: inputs are built here at run time, never committed.
enum Decode {
    /// Nested decoding with the scanner's default budget for the buffer.
    static func texts(_ text: String, depth: Int = DecodeBudget.defaultDepth) -> [DecodedText] {
        texts(Array(text.utf8), depth: depth).texts
    }

    static func texts(_ bytes: [UInt8], depth: Int) -> (texts: [DecodedText], budget: DecodeBudget) {
        var budget = DecodeBudget(maxDepth: depth, bufferSize: bytes.count)
        var decoder = NestedDecoder()
        var out: [DecodedText] = []
        bytes.withUnsafeBytes { decoder.decode($0, budget: &budget, into: &out) }
        return (out, budget)
    }

    /// One level, text spans only.
    static func spans(_ text: String) -> [DecodedSpan] {
        let bytes = Array(text.utf8)
        var budget = DecodeBudget(maxDepth: 1, bufferSize: bytes.count)
        var finder = SpanFinder()
        var out: [DecodedSpan] = []
        bytes.withUnsafeBytes { finder.find($0, keepBinary: false, budget: &budget, into: &out) }
        return out
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
    static func percentAll(_ text: String) -> String { text.utf8.map { String(format: "%%%02X", $0) }.joined() }

    /// Deterministic pseudo-random bytes (SplitMix64): a digest or compressed image data
    /// stand-in, the same on every run.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return generator.bytes(count)
    }
}

extension String {
    /// The byte range of the first `needle` in this string's UTF-8.
    func byteRange(of needle: String) -> Range<Int>? {
        let hay = Array(utf8), n = Array(needle.utf8)
        guard !n.isEmpty, n.count <= hay.count else { return nil }
        for i in 0...(hay.count - n.count) where hay[i] == n[0] && Array(hay[i..<i + n.count]) == n { return i..<i + n.count }
        return nil
    }
}

extension DecodedText {
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension DecodedSpan {
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
