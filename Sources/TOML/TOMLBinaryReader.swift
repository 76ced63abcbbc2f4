/// Decodes `TOMLBinaryFormat` back into the table `TOMLBinaryWriter` encoded.
///
/// The input is keyshape's own embedded pack, but it is still checked like any input:
/// every count is bounded by the bytes left, nesting by `maxDepth`, strings must be UTF-8,
/// keys unique and every byte accounted for. A damaged encoding is an `Error` naming the
/// offset, never a trap, and its message quotes none of the bytes.
public enum TOMLBinaryReader {
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let message: String

        public var description: String { "byte \(offset): \(message)" }
    }

    /// Deeper than any table TOMLReader accepts a document with, and shallow enough that
    /// the recursion cannot exhaust a thread's stack.
    static let maxDepth = 128

    public static func decode(_ bytes: [UInt8]) throws -> TOMLTable {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> TOMLTable {
        var cursor = Cursor(bytes: bytes)
        let magic = TOMLBinaryFormat.magic
        guard bytes.count >= magic.count, zip(bytes, magic).allSatisfy({ $0 == $1 }) else {
            throw Error(offset: 0, message: "not a keyshape binary TOML encoding (version 1)")
        }
        cursor.offset = magic.count
        let table = try cursor.table(depth: 0)
        guard cursor.offset == bytes.count else {
            throw Error(offset: cursor.offset, message: "\(bytes.count - cursor.offset) bytes after the table")
        }
        return table
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        func fail(_ message: String) -> Error { Error(offset: offset, message: message) }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw fail("unexpected end") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func number() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                guard b < 0x80 else { throw fail("byte above 0x7f in a number") }
                let payload = UInt64(b & TOMLBinaryFormat.payloadMask)
                // 11 groups of 6 bits hold 64; the last may only use its low 4 bits.
                guard shift < 64, shift < 60 || payload >> (64 - shift) == 0 else { throw fail("number over 64 bits") }
                value |= payload << shift
                if b & TOMLBinaryFormat.continuation == 0 { return value }
                shift += 6
            }
        }

        /// A count of things that each take at least one byte: never more than the bytes left.
        mutating func count() throws -> Int {
            let n = try number()
            guard n <= UInt64(bytes.count - offset) else { throw fail("count \(n) exceeds the bytes left") }
            return Int(n)
        }

        mutating func string() throws -> String {
            let length = try count()
            let start = offset
            offset += length
            let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
            // Nearly every string of the rule pack is ASCII, which is valid UTF-8 as it is:
            // checked a word at a time and copied, since `String(validating:)` (scalar by
            // scalar) was 5% of a pre-commit hook's whole run. Anything else is validated.
            if Cursor.isASCII(raw) { return String(decoding: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }
            guard let s = String(validating: raw, as: UTF8.self) else {
                offset = start
                throw fail("string is not UTF-8")
            }
            return s
        }

        static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
            var high: UInt64 = 0
            var i = 0
            while i + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count {
                high |= UInt64(raw[i])
                i += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }

        mutating func position() throws -> TOMLPosition? {
            let line = try number()
            guard line != 0 else { return nil }
            let column = try number()
            guard line <= UInt64(Int.max), column <= UInt64(Int.max) else { throw fail("position out of range") }
            return TOMLPosition(line: Int(line), column: Int(column))
        }

        mutating func table(depth: Int) throws -> TOMLTable {
            guard depth < TOMLBinaryReader.maxDepth else { throw fail("nested deeper than \(TOMLBinaryReader.maxDepth)") }
            let tablePosition = try position()
            let n = try count()
            var storage = OrderedMap<TOMLValue>()
            for _ in 0..<n {
                let keyOffset = offset
                let key = try string()
                guard storage.slot(of: key) == nil else {
                    throw Error(offset: keyOffset, message: "duplicate key")
                }
                let keyPosition = try position()
                storage.append(key, try value(depth: depth + 1), at: keyPosition)
            }
            return TOMLTable(storage: storage, position: tablePosition)
        }

        mutating func value(depth: Int) throws -> TOMLValue {
            guard depth < TOMLBinaryReader.maxDepth else { throw fail("nested deeper than \(TOMLBinaryReader.maxDepth)") }
            let tagOffset = offset
            guard let tag = TOMLBinaryFormat.Tag(rawValue: try byte()) else {
                throw Error(offset: tagOffset, message: "unknown value tag")
            }
            switch tag {
            case .string: return .string(try string())
            case .datetime: return .datetime(try string())
            case .integer:
                let z = try number()
                return .integer(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
            case .float: return .float(Double(bitPattern: try number()))
            case .true: return .boolean(true)
            case .false: return .boolean(false)
            case .array:
                let n = try count()
                var items: [TOMLValue] = []
                items.reserveCapacity(n)
                for _ in 0..<n { items.append(try value(depth: depth + 1)) }
                return .array(items)
            case .table:
                return .table(try table(depth: depth))
            }
        }
    }
}
