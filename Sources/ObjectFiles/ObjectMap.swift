/// Which container a file is. Fat/universal files are `.machO` with `ObjectMap.isFat` set.
public enum ObjectFormat: String, Sendable {
    case machO = "mach-o"
    case elf
    case raw
}

/// A named byte range of the file: a section, or a segment when no section covers the bytes.
public struct ObjectSection: Sendable, Equatable {
    /// `"__TEXT,__cstring"` (Mach-O segname,sectname), `".rodata"` (ELF), `"__LINKEDIT"`,
    /// `"LOAD[1]"` (ELF PT_LOAD by its ordinal among PT_LOAD headers).
    public var name: String
    /// Absolute offsets in the file on disk (a fat slice's offset included).
    public var fileRange: Range<Int>
    /// Address of `fileRange.lowerBound` when mapped; nil for unmapped bytes (ELF non-ALLOC).
    /// Relocatable objects (MH_OBJECT, ET_REL) report their section addresses as the file
    /// states them, i.e. relative to the object's own zero.
    public var virtualAddress: UInt64?

    public init(name: String, fileRange: Range<Int>, virtualAddress: UInt64?) {
        self.name = name
        self.fileRange = fileRange
        self.virtualAddress = virtualAddress
    }
}

/// One architecture's image: the whole file when thin, one fat slice otherwise.
public struct ObjectSlice: Sendable, Equatable {
    public var format: ObjectFormat
    /// Names as users know them: Mach-O `arm64`, `arm64e`, `x86_64`, `x86_64h`, `armv7`,
    /// `armv7s`, `armv7k`, `arm64_32`, `i386`, `ppc`, `ppc64`; ELF `x86_64`, `i386`, `arm`,
    /// `arm64` (EM_AARCH64, named like Mach-O so one arch filter fits both), `riscv64`,
    /// `ppc64`, `ppc64le`, `s390x`, `mips`, ... Unknown CPUs are `cputype-N` / `em-N`.
    /// A fat slice that is not Mach-O (a static library's archive) takes the fat header's
    /// CPU type and has format `.raw`. nil for raw files.
    public var arch: String?
    /// The slice in the file; the whole file when thin.
    public var fileRange: Range<Int>
    /// Sorted by `fileRange.lowerBound`; empty and zero-fill (S_ZEROFILL, SHT_NOBITS) sections
    /// are omitted because they have no bytes in the file. Overlaps are kept as found.
    public var sections: [ObjectSection]
    /// Mach-O segments and ELF PT_LOAD program headers with file bytes, sorted like sections.
    public var segments: [ObjectSection]

    public init(format: ObjectFormat, arch: String?, fileRange: Range<Int>,
                sections: [ObjectSection] = [], segments: [ObjectSection] = []) {
        self.format = format
        self.arch = arch
        self.fileRange = fileRange
        self.sections = sections
        self.segments = segments
    }
}

/// Where every byte of a binary is. The scanner reads the file in one pass and asks the map
/// about the offsets of its findings only, so lookups favour simplicity over speed.
public struct ObjectMap: Sendable, Equatable {
    public var format: ObjectFormat
    public var isFat: Bool
    /// Sorted by file offset and non-overlapping.
    public var slices: [ObjectSlice]
    /// Problems that did not stop the map from being useful: a section or segment whose file
    /// range lies outside its slice is dropped and named here ("slice arm64: section 3 ...").
    /// Messages carry numbers only. Structural damage throws `ObjectFileError` instead.
    /// Every entry is a malformation the scanner reports as an error entry for the file
    /// (exit 2, the bytes still scanned), so nothing that well-formed files do belongs here.
    public var warnings: [String]

    public init(format: ObjectFormat, isFat: Bool, slices: [ObjectSlice], warnings: [String] = []) {
        self.format = format
        self.isFat = isFat
        self.slices = slices
        self.warnings = warnings
    }

    /// The slice holding `offset`, the narrowest section holding it (else the narrowest
    /// segment; nil when neither does, e.g. headers and symbol tables of an object file), and
    /// that byte's virtual address when the region is mapped. nil when no slice holds it
    /// (outside the file, or between fat slices).
    public func locate(_ offset: Int) -> (slice: ObjectSlice, region: ObjectSection?, virtualAddress: UInt64?)? {
        guard let slice = slices.first(where: { $0.fileRange.contains(offset) }) else { return nil }
        guard let region = Self.narrowest(slice.sections, containing: offset)
                ?? Self.narrowest(slice.segments, containing: offset) else {
            return (slice, nil, nil)
        }
        // Wrapping add: a crafted address near UInt64.max must not trap; the value is only
        // ever printed.
        let address = region.virtualAddress.map { $0 &+ UInt64(offset - region.fileRange.lowerBound) }
        return (slice, region, address)
    }

    /// Linear on purpose: regions may overlap, so a binary search on start offsets would miss
    /// a wide region that starts early; a map has at most 1<<16 regions and lookups are rare.
    private static func narrowest(_ regions: [ObjectSection], containing offset: Int) -> ObjectSection? {
        var best: ObjectSection?
        for region in regions where region.fileRange.contains(offset) {
            if best == nil || region.fileRange.count < best!.fileRange.count {
                best = region
            }
        }
        return best
    }
}
