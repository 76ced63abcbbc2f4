import MatchEngine
import ScanCore

/// A `BlobEntry` as bytes, for a store that keeps it across runs (`BlobScanStore`), and back.
///
/// What a record holds is what `CachedFinding` holds, and nothing read from the blob but
/// what a report shows anyway: per finding the rule's id (not its index: indices belong to
/// one loaded rule set), the secret hash, the text position, the byte span, the suppression,
/// the checksum verdict, the named-credential pass's confidence and provider label (an index
/// into the rule's fixed list, `NamedGrade`), the binary place (format, arch, section, offsets), the provenance
/// steps (archive member paths, decoded encodings and spans) and the path and commit
/// conditions still to settle (`DeferredChecks`: allowlist numbers and counts). Never the
/// secret's bytes, nor the line around it.
///
/// A blob scanned whole that gave nothing is the empty record (no version byte either): nine
/// in ten blobs are such, and a store keeps them as their ids alone (`BlobScanStore`).
///
/// Layout of any other: a version byte, then the finding count and the findings, every integer a LEB128
/// varint (signed ones zigzagged), every string its byte count then its UTF-8 bytes. A
/// record that does not read back whole (another version, damage, a rule id this rule set
/// lacks) is no record: the blob is scanned again.
struct BlobEntryCoding {
    /// 1: as before the named-credential pass, written when no finding has a grade, so records
    /// of earlier runs and of the same findings read alike; 2: each finding's grade
    /// (`NamedGrade.code`) after its checksum.
    static let version: UInt8 = 1
    static let gradedVersion: UInt8 = 2
    private let ruleIDs: [String]
    private let ruleIndex: [String: Int32]

    /// nil when two rules share an id: a record names rules by id, so it could not say which.
    init?(ruleSet: RuleSet) {
        ruleIDs = ruleSet.rules.map(\.id)
        var index: [String: Int32] = [:]
        for (n, id) in ruleIDs.enumerated() where index.updateValue(Int32(n), forKey: id) != nil { return nil }
        ruleIndex = index
    }

    func encode(_ entry: BlobEntry) -> [UInt8] {
        if entry.findings.isEmpty { return [] }
        var w = Writer()
        let graded = entry.findings.contains { $0.confidence != nil || $0.provider != nil }
        w.out.append(graded ? BlobEntryCoding.gradedVersion : BlobEntryCoding.version)
        w.uint(UInt64(entry.findings.count))
        for f in entry.findings {
            w.string(ruleIDs[Int(f.ruleIndex)])
            w.uint(f.secretHash)
            w.int(Int64(f.line)); w.int(Int64(f.column)); w.int(Int64(f.endLine)); w.int(Int64(f.endColumn))
            w.int(Int64(f.byteOffset)); w.int(Int64(f.byteLength))
            w.string(f.suppression?.rawValue ?? "")
            w.uint(f.checksum.map { $0 ? 2 : 1 } ?? 0)
            if graded { w.uint(NamedGrade.code(confidence: f.confidence, provider: f.provider)) }
            if let b = f.binary {
                w.uint(1)
                w.string(b.format); w.optionalString(b.arch); w.optionalString(b.section)
                w.int(Int64(b.fileOffset))
                if let a = b.virtualAddress { w.uint(1); w.uint(a) } else { w.uint(0) }
            } else {
                w.uint(0)
            }
            w.uint(UInt64(f.steps.count))
            for step in f.steps {
                switch step {
                case .archiveMember(let path):
                    w.uint(0); w.bytes(path)
                case .decoded(let encoding, let range):
                    w.uint(1); w.string(encoding); w.int(Int64(range.lowerBound)); w.int(Int64(range.upperBound))
                }
            }
            if let p = f.pending {
                w.uint(1)
                w.uint(UInt64(p.entries.count))
                for e in p.entries {
                    w.uint(e.isRuleList ? 1 : 0); w.uint(UInt64(e.index)); w.uint(UInt64(e.byteChecks)); w.uint(UInt64(e.bytePasses))
                }
                w.uint(Self.code(p.otherwise)); w.uint(p.ruleCondition ? 1 : 0)
            } else {
                w.uint(0)
            }
        }
        return w.out
    }

    func decode(_ bytes: [UInt8]) -> BlobEntry? {
        if bytes.isEmpty { return BlobEntry(state: .scanned, findings: []) }
        var r = Reader(bytes: bytes)
        let version = r.byte()
        guard version == BlobEntryCoding.version || version == BlobEntryCoding.gradedVersion,
              let count = r.uint(), count <= UInt64(bytes.count) else { return nil }
        let graded = version == BlobEntryCoding.gradedVersion
        var findings: [CachedFinding] = []
        findings.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let id = r.string(), let rule = ruleIndex[id], let hash = r.uint(),
                  let line = r.int32(), let column = r.int32(), let endLine = r.int32(), let endColumn = r.int32(),
                  let offset = r.int(), offset >= 0, let length = r.int32(), length >= 0,
                  let suppressionName = r.string(), let checksum = r.uint(), checksum <= 2,
                  let gradeCode = graded ? r.uint() : 0, let grade = NamedGrade(code: gradeCode), let hasBinary = r.uint()
            else { return nil }
            var f = CachedFinding(ruleIndex: rule, secretHash: hash, line: line, column: column, endLine: endLine,
                                  endColumn: endColumn, byteOffset: Int(offset), byteLength: length)
            if !suppressionName.isEmpty {
                guard let s = Suppression(rawValue: suppressionName) else { return nil }
                f.suppression = s
            }
            f.checksum = checksum == 0 ? nil : checksum == 2
            f.confidence = grade.confidence
            f.provider = grade.provider
            if hasBinary == 1 {
                guard let format = r.string(), let arch = r.optionalString(), let section = r.optionalString(),
                      let fileOffset = r.int(), let hasAddress = r.uint() else { return nil }
                var address: UInt64?
                if hasAddress == 1 { guard let a = r.uint() else { return nil }; address = a }
                f.binary = BinaryPlace(format: format, arch: arch, section: section, fileOffset: Int(fileOffset), virtualAddress: address)
            } else if hasBinary != 0 {
                return nil
            }
            guard let stepCount = r.uint(), stepCount <= UInt64(bytes.count) else { return nil }
            for _ in 0..<stepCount {
                switch r.uint() {
                case 0:
                    guard let path = r.bytes() else { return nil }
                    f.steps.append(.archiveMember(path: path))
                case 1:
                    guard let encoding = r.string(), let low = r.int(), let high = r.int(), low >= 0, high >= low else { return nil }
                    f.steps.append(.decoded(encoding: encoding, sourceRange: Int(low)..<Int(high)))
                default: return nil
                }
            }
            switch r.uint() {
            case 0: break
            case 1:
                guard let entryCount = r.uint(), entryCount <= UInt64(bytes.count) else { return nil }
                var entries: [DeferredChecks.Entry] = []
                for _ in 0..<entryCount {
                    guard let list = r.uint(), let index = r.uint(), index <= UInt64(Int32.max), let checks = r.uint(), checks <= 255,
                          let passes = r.uint(), passes <= 255 else { return nil }
                    entries.append(DeferredChecks.Entry(isRuleList: list == 1, index: Int(index), byteChecks: UInt8(checks), bytePasses: UInt8(passes)))
                }
                guard let otherwise = r.uint().flatMap(Self.outcome), let ruleCondition = r.uint() else { return nil }
                f.pending = DeferredChecks(entries: entries, otherwise: otherwise, ruleCondition: ruleCondition == 1)
            default: return nil
            }
            findings.append(f)
        }
        guard r.atEnd else { return nil }
        return BlobEntry(state: .scanned, findings: findings)
    }

    private static func code(_ o: DeferredChecks.Outcome) -> UInt64 {
        switch o { case .report: return 0; case .drop: return 1; case .allowlisted: return 2 }
    }

    private static func outcome(_ n: UInt64) -> DeferredChecks.Outcome? {
        switch n { case 0: return .report; case 1: return .drop; case 2: return .allowlisted; default: return nil }
    }

    private struct Writer {
        var out: [UInt8] = []
        mutating func uint(_ value: UInt64) {
            var v = value
            while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        mutating func bytes(_ b: [UInt8]) { uint(UInt64(b.count)); out += b }
        mutating func string(_ s: String) { bytes(Array(s.utf8)) }
        mutating func optionalString(_ s: String?) {
            if let s { uint(1); string(s) } else { uint(0) }
        }
    }

    private struct Reader {
        let data: [UInt8]
        var at = 0
        init(bytes: [UInt8]) { data = bytes }
        var atEnd: Bool { at == data.count }
        mutating func byte() -> UInt8? {
            guard at < data.count else { return nil }
            at += 1
            return data[at - 1]
        }
        mutating func uint() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while let b = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(b & 0x7f) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        mutating func int() -> Int64? {
            uint().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
        }
        mutating func int32() -> Int32? { int().flatMap { Int32(exactly: $0) } }
        mutating func bytes() -> [UInt8]? {
            guard let n = uint(), n <= UInt64(data.count - at) else { return nil }
            defer { at += Int(n) }
            return Array(data[at..<at + Int(n)])
        }
        mutating func string() -> String? {
            guard let b = bytes() else { return nil }
            return String(validating: b, as: UTF8.self)
        }
        mutating func optionalString() -> String?? {
            switch uint() {
            case 0: return .some(nil)
            case 1: guard let s = string() else { return nil }; return .some(s)
            default: return nil
            }
        }
    }
}
