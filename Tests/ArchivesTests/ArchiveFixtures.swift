import Foundation
import XCTest
import Archives
import TestSupport

/// A scratch folder for fixtures built at test time with real tools (zip, tar and each
/// compressor, ar, dpkg-deb, python3 for what no tool writes); removed afterwards. Nothing
/// in it is committed.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keyshape-archives-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
    }

    func write(_ relative: String, _ text: String) throws { try write(relative, Array(text.utf8)) }

    func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(relative))) }

    /// Runs a tool found on PATH in this folder; fails the test (throws) when it is missing or fails.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], input: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> ChildOutcome {
        guard let executable = Tools.find(tool) else {
            XCTFail("\(tool) is not installed (scripts/bootstrap --test installs it)", file: file, line: line)
            throw Tools.Missing(name: tool)
        }
        let outcome = try runChild(executable, arguments, cwd: url.path, input: input, timeout: 120)
        if outcome.status != 0 || outcome.timedOut {
            XCTFail("\(tool) \(arguments) failed: \(outcome.stderrText)", file: file, line: line)
            throw Tools.Missing(name: tool)
        }
        return outcome
    }

    /// A shell pipeline over fixture files only (zeros piped into a compressor and the like).
    func shell(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try run("sh", ["-c", "set -e; " + script], file: file, line: line)
    }

    /// Every regular file under this folder (to check that reading wrote nothing).
    func listing() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}

enum Tools {
    struct Missing: Error { var name: String }

    static func find(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// What reading an archive (and every archive nested in it) gave: each member's bytes under
/// its chain of names joined with "!", the problems with their chains, the largest chunk a
/// read returned, and the resident memory's growth sampled at every chunk.
struct ReadOutcome {
    var members: [String: [UInt8]] = [:]
    var order: [String] = []
    var problems: [ArchiveProblem] = []
    var largestChunk = 0
    var peakResidentGrowth = 0
    var budget: ArchiveBudget

    func problems(_ kind: ArchiveProblem.Kind) -> [ArchiveProblem] { problems.filter { $0.kind == kind } }

    func chain(_ problem: ArchiveProblem) -> String {
        problem.members.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "!")
    }
}

enum ArchiveWalk {
    /// Reads `source` member by member in chunks of `chunk` bytes, opening nested archives
    /// (recognised by content) as the scanner does, keeping at most `keep` bytes of each.
    static func read(_ source: ArchiveSource, limits: ArchiveLimits = ArchiveLimits(), chunk: Int = 4096,
                     keep: Int = 1 << 20, openNested: Bool = true, sampleMemory: Bool = false) -> ReadOutcome {
        let budget = ArchiveBudget(limits: limits)
        var outcome = ReadOutcome(budget: budget)
        let baseline = sampleMemory ? residentBytes() : 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        func walk(_ reader: ArchiveReader, chain: [String]) -> [ArchiveProblem] {
            var nested: [ArchiveProblem] = []
            let own = reader.forEachMember { member in
                let names = chain + [String(decoding: member.name, as: UTF8.self)]
                let head = member.peek(ArchiveKind.headLength)
                if openNested, head.withUnsafeBytes({ ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) }) != nil {
                    let inner = ArchiveReader(source: .member(member), budget: budget, depth: reader.depth + 1)
                    nested += walk(inner, chain: names).map { $0.nested(in: member.name) }
                    return
                }
                var kept: [UInt8] = []
                while true {
                    let got = member.read(into: buffer)
                    if got == 0 { break }
                    outcome.largestChunk = max(outcome.largestChunk, got)
                    if kept.count < keep { kept += UnsafeRawBufferPointer(rebasing: buffer[0..<min(got, keep - kept.count)]) }
                    if sampleMemory { outcome.peakResidentGrowth = max(outcome.peakResidentGrowth, residentBytes() - baseline) }
                }
                let key = names.joined(separator: "!")
                outcome.order.append(key)
                outcome.members[key] = kept
            }
            return own + nested
        }
        outcome.problems += walk(ArchiveReader(source: source, budget: budget), chain: [])
        return outcome
    }

    /// Resident set size now (Linux /proc/self/statm), in bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The same, reading the file at `path` through a descriptor.
    static func read(file path: String, limits: ArchiveLimits = ArchiveLimits(), chunk: Int = 4096,
                     keep: Int = 1 << 20, sampleMemory: Bool = false) throws -> ReadOutcome {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
        defer { close(fd) }
        return read(.fileDescriptor(fd), limits: limits, chunk: chunk, keep: keep, sampleMemory: sampleMemory)
    }
}

/// CRC-32 (zip's, reflected 0xEDB88320) for archives crafted byte by byte.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func of(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xffff_ffff
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xffff_ffff
    }

    /// The CRC of A followed by B from crc(A), crc(B) and B's length, by multiplying in
    /// GF(2) with the operator for "append one zero bit", squared per bit of the length
    /// (so the CRC of 10 GiB of zeros costs microseconds, not a pass over 10 GiB).
    static func combine(_ crcA: UInt32, _ crcB: UInt32, lengthB: Int64) -> UInt32 {
        guard lengthB > 0 else { return crcA }
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0, v = vector, i = 0
            while v != 0 {
                if v & 1 != 0 { sum ^= matrix[i] }
                v >>= 1
                i += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { (0..<32).map { times(matrix, matrix[$0]) } }
        var odd = [UInt32](repeating: 0, count: 32)
        odd[0] = 0xedb8_8320
        for n in 1..<32 { odd[n] = 1 << (n - 1) }
        var even = square(odd)  // two zero bits
        odd = square(even)      // four zero bits
        var crc = crcA, length = lengthB
        while true {
            even = square(odd)  // first pass: one zero byte
            if length & 1 != 0 { crc = times(even, crc) }
            length >>= 1
            if length == 0 { break }
            odd = square(even)
            if length & 1 != 0 { crc = times(odd, crc) }
            length >>= 1
            if length == 0 { break }
        }
        return crc ^ crcB
    }
}

/// Little-endian writers for crafted headers.
extension Array where Element == UInt8 {
    mutating func le16(_ value: Int) { append(UInt8(value & 0xff)); append(UInt8((value >> 8) & 0xff)) }
    mutating func le32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xff)) } }
    mutating func le64(_ value: Int64) { for shift in stride(from: 0, to: 64, by: 8) { append(UInt8((UInt64(value) >> UInt64(shift)) & 0xff)) } }
}
