/// Which section and segment names from a file are printed.
///
/// Names are data read from the file, and the scanner prints them next to every finding
/// (text, JSON, SARIF) and folds them into fingerprints. A crafted ELF whose e_shstrndx
/// points into .rodata makes the "name" of each section whatever bytes sit there, the key
/// itself included; a Mach-O's 16-byte segname and sectname fields can hold 16 bytes of a
/// key. So a name is shown only when it has the shape names have in real toolchains'
/// output, and is otherwise replaced by the placeholder the parsers already use for a
/// region without a name: `[7]` (ELF section header 7), `SEGMENT[2]` (Mach-O segment load
/// command 2), `SECTION[5]` (the slice's Mach-O section 5, 0-based). It says where the bytes
/// are without quoting the file, and no accepted name contains a bracket, so a file cannot
/// forge one.
///
/// The shape, checked on bytes:
/// - at most 32 bytes (longer names, such as -ffunction-sections' `.text.<mangled name>`,
///   take the placeholder), printable ASCII only;
/// - ELF: `.` followed by words (`.rodata.str1.1`, `.note.gnu.build-id`, `.ARM.exidx`), or
///   the unprefixed families linkers and runtimes emit: `swift5_` (Swift metadata),
///   `__` (glibc's `__libc_freeres_ptrs`, kernel modules' `__ksymtab`), `link_set_`;
/// - Mach-O sections: `__` and lowercase words (`__cstring`, `__objc_methname`,
///   `__swift5_typeref`); segments: the names Apple's linkers define (`__TEXT`,
///   `__DATA_CONST`, `__LINKEDIT`, ...), since a segment name is uppercase words, and so is
///   many a key.
/// - words, the runs between `.`, `_`, `-` and `$`: lowercase letters and digits (at most 16
///   characters, and at most 8 when digits and letters mix, as in `str1` or `swift5`), or
///   uppercase letters (at most 5: `ARM`, `MIPS`, `IO`). Keys are long runs of mixed case
///   and digits, which this refuses; that costs nothing for names compilers emit.
enum SectionName {
    static let maxLength = 32

    /// The segment names of Apple's ld, ld64, ld-prime and the kernel linker.
    static let machOSegments: Set<String> = [
        "__PAGEZERO", "__TEXT", "__TEXT_EXEC", "__DATA", "__DATA_CONST", "__DATA_DIRTY", "__AUTH", "__AUTH_CONST",
        "__LINKEDIT", "__OBJC", "__OBJC_CONST", "__IMPORT", "__LLVM", "__DWARF", "__CTF", "__RESTRICT",
        "__UNIXSTACK", "__LD", "__TPRO_CONST", "__PRELINK_TEXT", "__PRELINK_INFO", "__PRELINK_DATA", "__KLD",
        "__KLDDATA", "__LAST", "__BOOTDATA", "__PLK_TEXT_EXEC", "__PLK_DATA_CONST", "__PLK_LLVM_COV",
        "__PLK_LINKEDIT", "__LLVM_COV", "__DATA_SPTM", "__SWIFT",
    ]

    /// An ELF section name as read from the string table (up to its NUL), if it may be shown.
    static func elf<C: Collection>(_ raw: C) -> String? where C.Element == UInt8 {
        let bytes = Array(raw)
        guard bytes.count >= 2, bytes.count <= maxLength else { return nil }
        let body: ArraySlice<UInt8>
        if bytes[0] == UInt8(ascii: ".") {
            body = bytes[1...]
        } else if let prefix = ["swift5_", "__", "link_set_"].first(where: { bytes.starts(with: $0.utf8) }) {
            body = bytes[prefix.utf8.count...]
        } else {
            return nil
        }
        return wordsLookRight(body) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// A Mach-O sectname (the bytes of its 16-byte field up to the first NUL), if it may be shown.
    static func machOSection<C: Collection>(_ raw: C) -> String? where C.Element == UInt8 {
        let bytes = Array(raw)
        guard bytes.count >= 3, bytes.count <= 16, bytes.starts(with: "__".utf8) else { return nil }
        let body = bytes[2...]
        guard body.allSatisfy({ !isUpper($0) }), wordsLookRight(body) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A Mach-O segname, if it is one the linkers define.
    static func machOSegment<C: Collection>(_ raw: C) -> String? where C.Element == UInt8 {
        let bytes = Array(raw)
        guard bytes.count <= 16, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        let name = String(decoding: bytes, as: UTF8.self)
        return machOSegments.contains(name) ? name : nil
    }

    private static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5a }
    private static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7a }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isSeparator(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "$")
    }

    /// Every byte is a letter, digit or separator, and every word has a name's shape.
    private static func wordsLookRight(_ body: ArraySlice<UInt8>) -> Bool {
        var word: [UInt8] = []
        func wordIsPlausible() -> Bool {
            if word.isEmpty { return true }
            let upper = word.contains(where: isUpper), lower = word.contains(where: isLower), digit = word.contains(where: isDigit)
            if upper { return !lower && !digit && word.count <= 5 }
            if lower && digit { return word.count <= 8 }
            return word.count <= 16
        }
        for b in body {
            if isSeparator(b) {
                guard wordIsPlausible() else { return false }
                word.removeAll(keepingCapacity: true)
            } else if isUpper(b) || isLower(b) || isDigit(b) {
                word.append(b)
            } else {
                return false
            }
        }
        return wordIsPlausible()
    }
}
