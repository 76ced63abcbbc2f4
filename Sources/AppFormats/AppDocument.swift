/// What a parser found in one app-format file: its strings in file order, the names of their
/// places (the contract's `section`: a property list's key path, a DEX's `string_data`),
/// and what was wrong with the structure (each an error entry; the file's bytes are still
/// scanned raw).
public struct AppDocument: Sendable {
    public let format: AppFormat
    /// Sorted by offset; they do not overlap (a byte range is listed once).
    public private(set) var strings: [AppString] = []
    public private(set) var places: [String] = []
    public private(set) var warnings: [String] = []
    private var placeIndex: [String: Int32] = [:]
    private var lastPlace: (name: String, index: Int32)?
    private var withheld: [Bool] = []

    /// Whether place names hold text from the file (a plist's keys) rather than fixed table
    /// names: such a name is data, and may itself be a key.
    public var placesComeFromData: Bool { format == .binaryPlist }

    /// Stops naming places `indices` (a rule matched their text): strings there are placed by
    /// format and offset alone, so no report prints a key that a plist used as a dict key.
    public mutating func withhold(places indices: [Int]) {
        if withheld.count < places.count { withheld = [Bool](repeating: false, count: places.count) }
        for i in indices where i >= 0 && i < places.count { withheld[i] = true }
    }

    public init(format: AppFormat) {
        self.format = format
    }

    mutating func add(offset: Int, length: Int, encoding: AppString.Encoding, place: String?, isDictValue: Bool = false) {
        var index: Int32 = -1
        if let place {
            // Most strings share their neighbour's place (a class file's every string is in
            // `constant_pool`): comparing with the last one spares a hash of the name per
            // string, which was 2% of the CPU of scanning jars of class files (`perf record`).
            if let last = lastPlace, last.name == place {
                index = last.index
            } else if let known = placeIndex[place] {
                index = known
            } else {
                index = Int32(places.count)
                places.append(place)
                placeIndex[place] = index
            }
            lastPlace = (place, index)
        }
        strings.append(AppString(offset: offset, length: length, encoding: encoding, place: index, isDictValue: isDictValue))
    }

    mutating func warn(_ message: String) {
        // Bounded: one malformed table must not give one entry per string.
        if warnings.count < 8, !warnings.contains(message) { warnings.append(message) }
    }

    /// Puts the strings in file order and drops repeats of one range (a DEX or a pool may point
    /// several ids at one string), and strings that overlap an earlier one (crafted tables), so
    /// every byte is placed once.
    mutating func finish() {
        strings.sort { ($0.offset, $0.length) < ($1.offset, $1.length) }
        var kept: [AppString] = []
        kept.reserveCapacity(strings.count)
        for s in strings where s.length > 0 {
            if let last = kept.last, s.offset < last.end { continue }
            kept.append(s)
        }
        strings = kept
    }

    /// The index of the string holding byte `offset`, if any.
    public func string(containing offset: Int) -> Int? {
        var lo = 0, hi = strings.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if strings[mid].end <= offset { lo = mid + 1 } else { hi = mid }
        }
        guard lo < strings.count, strings[lo].offset <= offset else { return nil }
        return lo
    }

    /// The place name of the string holding byte `offset`, nil outside every string.
    public func place(of offset: Int) -> String? {
        guard let i = string(containing: offset), strings[i].place >= 0 else { return nil }
        let place = Int(strings[i].place)
        return place < withheld.count && withheld[place] ? nil : places[place]
    }

    /// The first string whose range ends after `offset` (for walking a chunk's strings).
    public func firstString(endingAfter offset: Int) -> Int {
        var lo = 0, hi = strings.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if strings[mid].end <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
