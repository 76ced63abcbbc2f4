/// Encodes a table in `TOMLBinaryFormat`, keys in their order and with their positions, so
/// `TOMLBinaryReader` gives back a table equal to this one that also points at the same
/// source lines (a builtin rule's warning or error then names its line in `Rules/`).
public enum TOMLBinaryWriter {
    public static func encode(_ table: TOMLTable) -> [UInt8] {
        var out = TOMLBinaryFormat.magic
        out.reserveCapacity(64 * 1024)
        write(table, into: &out)
        return out
    }

    private static func write(_ table: TOMLTable, into out: inout [UInt8]) {
        write(position: table.position, into: &out)
        let keys = table.keys
        write(number: UInt64(keys.count), into: &out)
        for key in keys {
            write(string: key, into: &out)
            write(position: table.position(of: key), into: &out)
            // The key came from `keys`, so it is there.
            write(table[key]!, into: &out)
        }
    }

    private static func write(_ value: TOMLValue, into out: inout [UInt8]) {
        typealias Tag = TOMLBinaryFormat.Tag
        switch value {
        case .string(let s):
            out.append(Tag.string.rawValue)
            write(string: s, into: &out)
        case .datetime(let s):
            out.append(Tag.datetime.rawValue)
            write(string: s, into: &out)
        case .integer(let i):
            out.append(Tag.integer.rawValue)
            // Zigzag, so small negative numbers stay short.
            write(number: UInt64(bitPattern: (i << 1) ^ (i >> 63)), into: &out)
        case .float(let d):
            out.append(Tag.float.rawValue)
            write(number: d.bitPattern, into: &out)
        case .boolean(let b):
            out.append(b ? Tag.true.rawValue : Tag.false.rawValue)
        case .array(let items):
            out.append(Tag.array.rawValue)
            write(number: UInt64(items.count), into: &out)
            for item in items { write(item, into: &out) }
        case .table(let t):
            out.append(Tag.table.rawValue)
            write(t, into: &out)
        }
    }

    private static func write(position: TOMLPosition?, into out: inout [UInt8]) {
        // Lines are 1-based, so 0 is free to mean "none".
        guard let position, position.line > 0 else { out.append(0); return }
        write(number: UInt64(position.line), into: &out)
        write(number: UInt64(max(0, position.column)), into: &out)
    }

    private static func write(string: String, into out: inout [UInt8]) {
        write(number: UInt64(string.utf8.count), into: &out)
        out.append(contentsOf: string.utf8)
    }

    private static func write(number: UInt64, into out: inout [UInt8]) {
        var n = number
        while n > UInt64(TOMLBinaryFormat.payloadMask) {
            out.append(UInt8(n & UInt64(TOMLBinaryFormat.payloadMask)) | TOMLBinaryFormat.continuation)
            n >>= 6
        }
        out.append(UInt8(n))
    }
}
