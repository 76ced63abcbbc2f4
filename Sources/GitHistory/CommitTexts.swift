import Foundation

/// Where the free text git keeps beside the trees comes from: commit messages, annotated
/// tag messages and notes. Listing only, through plumbing (`rev-list`, `for-each-ref`,
/// `ls-tree`); the texts themselves are read as raw objects with `cat-file` and cut out
/// here (`CommitTexts.parseCommit`, `parseTag`), so a message holding any byte, NUL
/// included, is read whole, and no pretty-format option of the repository's config can
/// change what is read. Every text is data from the repository: nothing here prints it.
public enum CommitTexts {
    /// An annotated tag object and the ref it was found under.
    public struct TagRef: Sendable, Hashable {
        public var ref: String
        public var tag: ObjectID
    }

    /// A note: the object it annotates and the blob holding its text.
    public struct Note: Sendable, Hashable {
        public var annotated: ObjectID
        public var blob: ObjectID
    }

    /// A notes ref (`refs/notes/*`) and the notes commit it points at.
    public struct NotesRef: Sendable, Hashable {
        public var ref: String
        public var commit: ObjectID
    }

    /// The commits `selection` names, as `CommitLog` lists them (the same `rev-list`
    /// arguments, so `--range` and `--since` select the same commits' messages).
    public static func commits(_ git: Git, selection: CommitSelection) throws -> [ObjectID] {
        let out = try git.output(["rev-list"] + selection.revListArguments + ["--"])
        return out.split(separator: 0x0A).compactMap { ObjectID(hexBytes: $0) }
    }

    /// Every ref that points at a tag object, wherever it lives (`refs/tags/*`, but also
    /// `refs/original/*`, `refs/pull/*`, any other namespace), in ref order.
    public static func annotatedTags(_ git: Git) throws -> [TagRef] {
        try RefListing(git).annotatedTags
    }

    /// Every ref under `refs/notes/` that points at a commit (a notes ref's history is a
    /// chain of commits whose trees hold one blob per annotated object).
    public static func notesRefs(_ git: Git) throws -> [NotesRef] {
        try RefListing(git).notesRefs
    }

    /// The repository's refs, listed once (one `for-each-ref`) for both the annotated tags
    /// and the notes refs: the history scan asks for both, and each git process costs its
    /// start (reading the config and the packed refs) again.
    public struct RefListing: Sendable {
        public let annotatedTags: [TagRef]
        public let notesRefs: [NotesRef]

        public init(_ git: Git) throws {
            let all = try CommitTexts.refs(git)
            annotatedTags = all.filter { $0.type == "tag" }.map { TagRef(ref: $0.name, tag: $0.id) }
            notesRefs = all.filter { $0.type == "commit" && $0.name.hasPrefix("refs/notes/") }
                .map { NotesRef(ref: $0.name, commit: $0.id) }
        }
    }

    /// The notes in a notes commit's tree: each blob whose path, slashes of the fan-out
    /// removed, is an object name (what `git notes list` shows; other files in a notes tree
    /// are no notes and are left to the blob scan, which reads them anyway).
    public static func notes(_ git: Git, in commit: ObjectID) throws -> [Note] {
        let out = try git.output(["ls-tree", "-r", "-z", "--full-tree", commit.hex, "--"], maxBytes: CommitLog.maxListingBytes)
        var notes: [Note] = []
        let hexLength = git.oidByteCount * 2
        for record in out.split(separator: 0) {
            // MODE SP TYPE SP OID TAB PATH
            guard let tab = record.firstIndex(of: 0x09) else { continue }
            let meta = record[record.startIndex..<tab].split(separator: 0x20)
            guard meta.count == 3, meta[1].elementsEqual("blob".utf8), let blob = ObjectID(hexBytes: meta[2]) else { continue }
            let name = record[(tab + 1)...].filter { $0 != 0x2F }
            guard name.count == hexLength, let annotated = ObjectID(hexBytes: name) else { continue }
            notes.append(Note(annotated: annotated, blob: blob))
        }
        return notes
    }

    /// The tag object `rev` names when it names one (`rev^{tag}`): a pushed tag in a
    /// pre-receive hook's range is on no ref yet.
    public static func tagObject(_ git: Git, _ rev: String) throws -> ObjectID? {
        guard !rev.isEmpty, !rev.hasPrefix("-") else { return nil }
        let r = try git.tryOutput(["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{tag}"])
        guard r.status == 0 else { return nil }
        return ObjectID(hexBytes: r.stdout.prefix { $0 != 0x0A })
    }

    struct Ref { var id: ObjectID; var type: String; var name: String }

    static func refs(_ git: Git) throws -> [Ref] {
        let out = try git.output(["for-each-ref", "--format=%(objectname) %(objecttype) %(refname)"])
        var refs: [Ref] = []
        for line in out.split(separator: 0x0A) {
            let parts = line.split(separator: 0x20, maxSplits: 2)
            guard parts.count == 3, let id = ObjectID(hexBytes: parts[0]) else { continue }
            refs.append(Ref(id: id, type: String(decoding: parts[1], as: UTF8.self), name: String(decoding: parts[2], as: UTF8.self)))
        }
        return refs
    }

    /// A person line's fields (`author` or `tagger`): name, email, strict ISO 8601 date.
    public struct Person: Sendable, Hashable {
        public var name: String
        public var email: String
        public var date: String?
    }

    /// What a raw commit object says: the byte range of its message (after the first empty
    /// line; empty when there is none) and its author.
    public struct ParsedCommit {
        public var message: Range<Int>
        public var author: Person?
    }

    /// What a raw tag object says: the object it points at and that object's type, the
    /// name it gives itself (raw bytes: any but NUL and newline), the tagger, and its message
    /// (a signature, when there is one, is part of it as git stores it).
    public struct ParsedTag {
        public var object: ObjectID?
        public var type: String
        public var name: [UInt8]
        public var tagger: Person?
        public var message: Range<Int>
    }

    /// Where a raw commit's message starts, as `parseCommit` finds it (after the first empty
    /// line; the end when there is none), without reading its headers: the history scan
    /// wants only the message, and decoding each author line and date took a third of the
    /// commit-message pass's CPU (6,718 commits of psf/requests: 23 ms of 64 ms).
    public static func messageRange(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0..<0 }
        if bytes[0] == 0x0A { return 1..<bytes.count }  // the first line is the empty one
        var at = 0
        // The first newline followed by another one ends the headers.
        while at < bytes.count - 1, let hit = memchr(base + at, 0x0A, bytes.count - 1 - at) {
            let i = UnsafeRawPointer(hit) - base
            if bytes[i + 1] == 0x0A { return (i + 2)..<bytes.count }
            at = i + 1
        }
        return bytes.count..<bytes.count
    }

    public static func parseCommit(_ bytes: UnsafeRawBufferPointer) -> ParsedCommit {
        var author: Person?
        let message = parseHeaders(bytes) { key, value in
            if key.elementsEqual("author".utf8) { author = person(value) }
        }
        return ParsedCommit(message: message, author: author)
    }

    public static func parseTag(_ bytes: UnsafeRawBufferPointer) -> ParsedTag {
        var tag = ParsedTag(object: nil, type: "", name: [], tagger: nil, message: 0..<0)
        tag.message = parseHeaders(bytes) { key, value in
            if key.elementsEqual("object".utf8) { tag.object = ObjectID(hexBytes: value) }
            else if key.elementsEqual("type".utf8) { tag.type = String(decoding: value, as: UTF8.self) }
            else if key.elementsEqual("tag".utf8) { tag.name = Array(value) }
            else if key.elementsEqual("tagger".utf8) { tag.tagger = person(value) }
        }
        return tag
    }

    /// Calls `header` for each `key value` line of an object's header (continuation lines,
    /// which start with a space, belong to a multi-line value such as `gpgsig` and are
    /// skipped); returns the range of the message after the empty line.
    static func parseHeaders(_ bytes: UnsafeRawBufferPointer, _ header: (Slice<UnsafeRawBufferPointer>, Slice<UnsafeRawBufferPointer>) -> Void) -> Range<Int> {
        var i = 0
        while i < bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end == i { return min(end + 1, bytes.count)..<bytes.count }  // the empty line
            if bytes[i] != 0x20 {
                let line = bytes[i..<end]
                if let space = line.firstIndex(of: 0x20) {
                    header(bytes[i..<space], bytes[(space + 1)..<end])
                } else {
                    header(line, bytes[end..<end])
                }
            }
            i = end + 1
        }
        return bytes.count..<bytes.count
    }

    /// `Name <email> 1700000000 +0100`. The date in git's `%aI` form
    /// (`2023-11-14T23:13:20+01:00`), nil when the line carries none it can read.
    static func person(_ value: Slice<UnsafeRawBufferPointer>) -> Person? {
        guard let open = value.firstIndex(of: 0x3C), let close = value[open...].firstIndex(of: 0x3E) else { return nil }
        var nameEnd = open
        while nameEnd > value.startIndex && value[nameEnd - 1] == 0x20 { nameEnd -= 1 }
        let name = String(decoding: value[value.startIndex..<nameEnd], as: UTF8.self)
        let email = String(decoding: value[(open + 1)..<close], as: UTF8.self)
        let rest = value[(close + 1)...].split(separator: 0x20)
        var date: String?
        if rest.count == 2, let seconds = Int(String(decoding: rest[0], as: UTF8.self)) {
            date = isoDate(seconds: seconds, zone: String(decoding: rest[1], as: UTF8.self))
        }
        return Person(name: name, email: email, date: date)
    }

    /// Seconds since the epoch and git's `+HHMM` zone as strict ISO 8601 in that zone.
    static func isoDate(seconds: Int, zone: String) -> String? {
        let z = Array(zone.utf8)
        guard z.count == 5, z[0] == 0x2B || z[0] == 0x2D, let hh = Int(String(zone.dropFirst().prefix(2))),
              let mm = Int(String(zone.suffix(2))), hh < 100, mm < 60 else { return nil }
        let offset = (z[0] == 0x2D ? -1 : 1) * (hh * 3600 + mm * 60)
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm), so any
        // 64-bit timestamp a hostile object carries converts without Foundation's limits.
        let (local, overflow) = seconds.addingReportingOverflow(offset)
        guard !overflow, abs(local) < 1 << 45 else { return nil }
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secs = local - days * 86400
        let zd = days + 719_468
        let era = (zd >= 0 ? zd : zd - 146_096) / 146_097
        let doe = zd - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = year >= 0 && year < 10000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(y)-\(two(month))-\(two(day))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))"
            + "\(z[0] == 0x2D ? "-" : "+")\(two(hh)):\(two(mm))"
    }
}
