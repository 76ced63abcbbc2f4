/// The compact binary form of a parsed `TOMLTable` that keyshape embeds its builtin rule
/// pack in, so start-up decodes tables instead of parsing TOML text (parsing the 555-rule
/// pack was 19-31% of an empty-file scan's CPU time in a `perf` profile).
///
/// Layout (version 1): the magic `KSTB1`, then one table.
///
/// ```
/// table    = position count (key position value){count}
/// value    = 's' string | 'd' string (date-time text) | 'i' zigzag | 'f' bits (IEEE 754)
///          | 't' (true) | 'n' (false, "no") | 'a' count value{count} | 'T' table
/// string   = count utf8-byte{count}
/// position = 0 (none) | line column
/// number   = 6 bits a byte, least significant first; 0x40 set on every byte but the last
/// ```
///
/// Every byte outside string contents is below 0x80 and every string is whole UTF-8, so
/// an encoding is itself valid UTF-8: the generated source embeds it as a `StaticString`,
/// read in place with no copy and no base64 pass, and the compiler builds it as fast as
/// any string literal (a `[UInt8]` literal of the same 400 KB keeps the type checker busy
/// for minutes).
enum TOMLBinaryFormat {
    static let magic: [UInt8] = Array("KSTB1".utf8)
    static let continuation: UInt8 = 0x40
    static let payloadMask: UInt8 = 0x3F

    enum Tag: UInt8 {
        case string = 0x73      // s
        case datetime = 0x64    // d
        case integer = 0x69     // i
        case float = 0x66       // f
        case `true` = 0x74      // t
        case `false` = 0x6E     // n
        case array = 0x61       // a
        case table = 0x54       // T
    }
}
