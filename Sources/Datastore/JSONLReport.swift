import Foundation
import ScanCore

/// Reads a `--format jsonl` report (one finding object a line) back into findings, for
/// `keyshape import`. The report is data from elsewhere: errors say which line, never what
/// it held, and every string read is kept as data (reporters escape it when they print).
public enum JSONLReport {
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static func parse(_ data: Data) throws -> [Finding] {
        var findings: [Finding] = []
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw ReadError(line: lineNumber, reason: "not a JSON object")
            }
            findings.append(try finding(object, line: lineNumber))
        }
        return findings
    }

    static func finding(_ o: [String: Any], line: Int) throws -> Finding {
        func string(_ key: String, in object: [String: Any] = o) throws -> String {
            guard let s = object[key] as? String else { throw ReadError(line: line, reason: "`\(key)` missing or not a string") }
            return s
        }
        guard let loc = o["location"] as? [String: Any] else { throw ReadError(line: line, reason: "`location` missing") }
        guard let kind = Location.Kind(rawValue: try string("kind", in: loc)) else {
            throw ReadError(line: line, reason: "`location.kind` is not one keyshape writes")
        }
        func int(_ key: String) throws -> Int? {
            guard let v = loc[key] else { return nil }
            guard let n = v as? NSNumber, let i = Int(exactly: n.doubleValue) else {
                throw ReadError(line: line, reason: "`location.\(key)` is not a whole number")
            }
            return i
        }
        func text(_ key: String) throws -> String? {
            guard let v = loc[key] else { return nil }
            guard let s = v as? String else { throw ReadError(line: line, reason: "`location.\(key)` is not a string") }
            return s
        }
        guard let offset = try int("byteOffset"), let length = try int("byteLength") else {
            throw ReadError(line: line, reason: "`location.byteOffset` or `byteLength` missing")
        }
        func strings(_ key: String) throws -> [String] {
            guard let v = loc[key] else { return [] }
            guard let list = v as? [String] else { throw ReadError(line: line, reason: "`location.\(key)` is not a list of strings") }
            return list
        }
        var l = Location(kind: kind, path: try text("path"), byteOffset: offset, byteLength: length)
        l.line = try int("line"); l.column = try int("column"); l.endLine = try int("endLine"); l.endColumn = try int("endColumn")
        if let format = try text("format") {
            var address: UInt64?
            if let a = try text("virtualAddress") {
                guard a.hasPrefix("0x"), let v = UInt64(a.dropFirst(2), radix: 16) else {
                    throw ReadError(line: line, reason: "`location.virtualAddress` is not a 0x hex address")
                }
                address = v
            }
            l.binary = BinaryPlace(format: format, arch: try text("arch"), section: try text("section"),
                                   fileOffset: try int("fileOffset") ?? offset, virtualAddress: address)
        } else {
            l.binary = nil
        }
        // Commit text (message, tag, note) has a `field` and no path.
        if let field = try text("field"), let commit = try text("commit") {
            switch field {
            case "message": l.provenance = .commitText(commit: commit, field: .message)
            case "tag": l.provenance = .commitText(commit: commit, field: .tag(name: try text("tag") ?? ""))
            case "note": l.provenance = .commitText(commit: commit, field: .note(notesRef: try text("notesRef") ?? ""))
            default: throw ReadError(line: line, reason: "`location.field` is not one keyshape writes")
            }
        } else {
            l.commit = try text("commit"); l.blob = try text("blob"); l.author = try text("author"); l.email = try text("email")
            l.date = try text("date")
        }
        // Archive members, then decoded spans (their source ranges are not in a report).
        for member in try strings("archive") { l.provenance = .archiveMember(parent: l.provenance, member: Array(member.utf8)) }
        for encoding in try strings("decoded") { l.provenance = .decoded(parent: l.provenance, encoding: encoding, sourceRange: 0..<0) }
        return Finding(rule: try string("rule"), description: (o["description"] as? String) ?? "",
                       fingerprint: try string("fingerprint"), secretHash: try string("secretHash"), location: l)
    }
}
