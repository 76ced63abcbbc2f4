#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import AppFormats
import POSIXIO

/// What the file-scan harness does with one input, and what the file seed replay tests run
/// on every committed seed: the same code, so a seed is held to exactly what the fuzzer held
/// it to.
///
/// Each input is written to a file in a private temporary folder and the folder is scanned
/// by the real `Scanner`, as `keyshape scan` scans it: walk, bounded chunk reads, the
/// text/binary sniff, the object-file layout (Mach-O, fat, ELF maps, read through the
/// descriptor the scan opened), printable runs, UTF-16 runs, the keyword prefilter and PCRE2
/// matching with the builtin rule pack, line and column, secret hashes and fingerprints.
/// A file rather than an in-memory entry point, because the per-file path is spread over
/// FileScanner, ChunkReader and BinaryLayout (which maps the open descriptor): a buffer
/// entry point would skip the reads, and a file on a tmpfs costs little next to the scan (the
/// write and the walk were under 1% of the harness's time in a profile; each secret's
/// deliberately slow hash was 29%). It also needs no entry point in ScanPipeline, whose
/// scanners are to become one pipeline: `Scanner.scan(paths:)` is what the CLI calls.
///
/// Two settings follow from the input so the fuzzer reaches both sides of each: the chunk
/// size (1 KiB chunks with 256 bytes of overlap for a third of the inputs, so chunk
/// boundaries cross text lines, printable runs and UTF-16 runs; else the 8 MiB default,
/// one chunk) and `minStringLength` (4, the smallest a config may set, for a quarter of
/// them; else the default 8).
///
/// Checked: the one file is scanned (counted) and every issue names it; every finding lies
/// inside the file, names a loaded rule, carries 16-hex hashes; a text finding's line is the
/// file's line and column at its byte offset (across chunk boundaries too); a
/// binary finding's file offset is its byte offset; and no report (text, JSON, JSONL,
/// SARIF) holds the bytes of any secret found.
public final class FileScanCheck {
    public let ruleSet: RuleSet
    private let folder: String
    private let file: String
    static let fileName = "fuzz-input"

    /// - Parameter rulesFolder: a folder of rule files (the checkout's `Rules/`), loaded
    ///   as keyshape loads its builtin pack (compiled at first use).
    public init(rulesFolder: String) throws {
        var files: [RuleFile] = []
        for name in FileScanCheck.tomlFiles(in: rulesFolder) {
            guard let bytes = FileScanCheck.read(rulesFolder + "/" + name), let text = String(validating: bytes, as: UTF8.self) else {
                throw ScanIssue(path: rulesFolder + "/" + name, message: "cannot read as UTF-8 text")
            }
            files.append(try RuleLoader.load(text: text, file: "builtin:" + name, deferCompile: true))
        }
        ruleSet = RuleSet.combining(files).0
        guard !ruleSet.rules.isEmpty else { throw ScanIssue(path: rulesFolder, message: "no rules loaded") }
        // tmpfs where there is one: the harness writes a file per input.
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        var template = Array((base + "/keyshape-fuzz-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ScanIssue(path: base, message: "cannot make a temporary folder") }
        folder = String(cString: made)
        file = folder + "/" + FileScanCheck.fileName
    }

    deinit { remove() }

    /// Removes the temporary folder (also done on deinit; a fuzzer exits without one).
    public func remove() {
        unlink(file)
        rmdir(folder)
    }

    /// What went wrong, one line each; empty when the input was handled as it must be.
    /// Never quotes the input or a secret.
    public func problems(_ bytes: [UInt8]) -> [String] {
        guard write(bytes) else { return ["cannot write the input file (errno \(errno))"] }
        let options = FileScanCheck.options(for: bytes.count)
        return check(scan(options), bytes: bytes)
    }

    /// The scan the harness runs on `bytes`, with the settings they select.
    public func scan(_ bytes: [UInt8]) -> ScanResult {
        guard write(bytes) else { return ScanResult(issues: [ScanIssue(path: folder, message: "cannot write the input file")]) }
        return scan(FileScanCheck.options(for: bytes.count))
    }

    private func scan(_ options: ScanOptions) -> ScanResult {
        Scanner(ruleSet: ruleSet, options: options).scan(paths: [folder]).result
    }

    /// 1 KiB chunks for a third of the inputs, `minStringLength` 4 for a quarter (see above).
    static func options(for count: Int) -> ScanOptions {
        var options = ScanOptions(jobs: 1)
        options.hashKey = "fuzz"
        if count % 3 == 0 { options.chunkSize = 1024 }
        if count % 4 == 0 { options.minStringLength = 4 }
        return options
    }

    /// The checks on a scan of `bytes`. Columns are checked whatever the chunking: the
    /// scanner carries a line's columns across chunk boundaries.
    public func check(_ result: ScanResult, bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let name = FileScanCheck.fileName
        if result.stats.files != 1 && !result.issues.contains(where: { $0.path == name }) {
            problems.append("the file was neither scanned nor reported as an error (files: \(result.stats.files))")
        }
        for issue in result.issues where issue.path != name || issue.message.isEmpty {
            problems.append("an issue that names another path or says nothing")
        }
        let ruleIds = Set(ruleSet.rules.map(\.id))
        var secrets: [[UInt8]] = []
        for (n, f) in result.findings.enumerated() {
            let l = f.location
            let at = "finding \(n + 1) (\(f.rule), \(l.kind.rawValue) at \(l.byteOffset)+\(l.byteLength))"
            if !ruleIds.contains(f.rule) { problems.append("\(at): names no loaded rule") }
            if l.path != name { problems.append("\(at): path is not the file's") }
            if !FileScanCheck.isHex16(f.secretHash) || !FileScanCheck.isHex16(f.fingerprint) { problems.append("\(at): hashes are not 16 hex digits") }
            guard l.byteOffset >= 0, l.byteLength > 0, l.byteOffset + l.byteLength <= bytes.count else {
                problems.append("\(at): outside the \(bytes.count)-byte file")
                continue
            }
            let span = Array(bytes[l.byteOffset..<(l.byteOffset + l.byteLength)])
            switch l.kind {
            case .file:
                let start = FileScanCheck.position(of: l.byteOffset, in: bytes)
                let end = FileScanCheck.position(of: l.byteOffset + l.byteLength, in: bytes)
                if l.line != start.line || l.endLine != end.line {
                    problems.append("\(at): lines \(l.line ?? -1)-\(l.endLine ?? -1), the bytes say \(start.line)-\(end.line)")
                }
                if l.column != start.column || l.endColumn != end.column {
                    problems.append("\(at): columns \(l.column ?? -1)-\(l.endColumn ?? -1), the bytes say \(start.column)-\(end.column)")
                }
                secrets.append(span)
            case .binary:
                if l.fileOffset != l.byteOffset { problems.append("\(at): fileOffset differs from byteOffset") }
                if !FileScanCheck.binaryFormats.contains(l.format ?? "") { problems.append("\(at): unknown format") }
                if l.line != nil || l.column != nil { problems.append("\(at): a binary finding with a line or column") }
                // A UTF-16 run's secret is its low bytes; a printable run's is the bytes as they are.
                let evens = stride(from: 0, to: span.count, by: 2).map { span[$0] }
                let odds = stride(from: 1, to: span.count, by: 2).map { span[$0] }
                secrets.append(span.count % 2 == 0 && !odds.isEmpty && odds.allSatisfy { $0 == 0 } ? evens : span)
            default:
                problems.append("\(at): a scan of a file gave a \(l.kind.rawValue) location")
            }
        }
        let reports = [TextReporter.report(result) + TextReporter.summary(result), JSONReporter.report(result),
                       JSONReporter.reportLines(result), SARIFReporter.report(result)]
        for (n, secret) in secrets.enumerated() where secret.count >= FileScanCheck.minimumLeakLength {
            for report in reports where FileScanCheck.contains(Array(report.utf8), secret) {
                problems.append("finding \(n + 1): a report holds the secret's bytes")
            }
        }
        return problems
    }

    /// Secrets shorter than this are not looked for in the reports: a short value can occur
    /// there by chance (a rule id, a hex hash, a number). The builtin rules' shortest
    /// secrets are longer.
    static let minimumLeakLength = 12

    /// Line and column as the contract defines them: 1-based, columns counting Unicode
    /// scalars (a byte that does not continue a UTF-8 sequence starts a column).
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
        let column = 1 + bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
        return (line, column)
    }

    /// A binary finding's `format`: an object file's, or an app format's whose strings were
    /// read (a Java class file's constant pool, a binary plist's strings, ...).
    static let binaryFormats = Set(["mach-o", "elf", "raw"] + AppFormat.allCases.map(\.rawValue))

    static func isHex16(_ s: String) -> Bool {
        s.utf8.count == 16 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// libc's strstr where it can answer (no NUL in either), not a loop here: code in this
    /// module carries the fuzzer's coverage instrumentation, and a byte loop over the four
    /// reports took most of the harness's own time (the standard library's generic
    /// `firstRange(of:)` was slower still).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        if !needle.contains(0) && !haystack.contains(0) {
            return (haystack + [0]).withUnsafeBufferPointer { h in
                (needle + [0]).withUnsafeBufferPointer { n in
                    h.withMemoryRebound(to: CChar.self) { h in
                        n.withMemoryRebound(to: CChar.self) { n in strstr(h.baseAddress!, n.baseAddress!) != nil }
                    }
                }
            }
        }
        guard haystack.count >= needle.count else { return false }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return POSIX.writeAll(fd, bytes) == nil
    }

    static func tomlFiles(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".toml") && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return ferror(f) == 0 ? bytes : nil
    }
}
