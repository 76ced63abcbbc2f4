import FileInputs
import Foundation
import GitHistory
import ScanCore
import MatchEngine

/// Scans the free text a history keeps beside its trees: the message of every commit the
/// history scan selects, every annotated tag's message, and every note. Each text is one
/// text buffer through the same `BufferPipeline` as a file (inline `keyshape:allow`,
/// allowlists with the commit as the allowlists' commit and no path, the transforms), then
/// the one `FindingBuilder` (fingerprint, baseline). Runs on its own thread beside the blob
/// scan (`start`, then `finish` merges into the run).
///
/// What is read, and how it is reported (provenance `commitText`: kind `commit`, no `path`):
/// - a commit message: field `message` at that commit;
/// - an annotated tag (any ref that points at a tag object, wherever it lives, and each tag
///   object a chain of tags passes through): field `tag`, `tag` = the name the tag object
///   gives itself, at the object the chain ends at (a commit, nearly always);
/// - a note (each ref under `refs/notes/`, each note of its current tree): field `note`,
///   `notesRef` = that ref, at the object the note annotates.
///   The notes ref's commits are history like any other, so the note's blob is also
///   scanned as a file of its notes commit (and older, removed notes that way only).
///
/// With `--since` / `--range` only the selected commits' messages are read, the tags and
/// notes of those commits, and a range end that is itself a tag object (a pushed tag in a
/// pre-receive hook, on no ref yet).
///
/// With `--all-objects` also the message of every commit and tag object in the store that
/// no ref or reflog reaches (a rewritten or dropped commit, a deleted tag): a commit's at
/// itself, a tag's at the object it points at, as for reachable ones.
///
/// Rules limited to paths (`path = …`) are about files and do not apply: a message has no
/// path. The fingerprint is the pipeline's one function of the provenance
/// (`Provenance.fingerprintPlace`: rule + commit + field, tag name or notes ref +
/// secretHash), so a key in a message is baselined at that commit; the same key in a file
/// elsewhere keeps its own fingerprint.
final class CommitTextScanner: @unchecked Sendable {
    let scanner: HistoryScanner
    let git: Git
    /// The blob scan's commit listing, whose commit names are the selection's (no second
    /// `rev-list`); nil when it could not start.
    let log: CommitLog?
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Outcome

    struct Outcome {
        var findings: [Finding] = []
        var issues: [ScanIssue] = []
        var builder: FindingBuilder
        var texts = 0
        var bytes = 0
    }

    init(scanner: HistoryScanner, git: Git, log: CommitLog?) {
        self.scanner = scanner
        self.git = git
        self.log = log
        outcome = Outcome(builder: FindingBuilder(options: scanner.options))
    }

    func start() {
        Thread.detachNewThread { [self] in
            var session = Session(scanner: scanner, git: git, log: log, outcome: outcome)
            session.run()
            session.reader.close()
            outcome = session.outcome
            done.signal()
        }
    }

    /// Waits for the texts and adds what they gave to `run`.
    func finish(into run: inout HistoryRun) {
        done.wait()
        run.findings += outcome.findings
        run.issues += outcome.issues
        run.builder.suppressed.counts.add(outcome.builder.suppressed.counts)
        run.builder.suppressed.kept += outcome.builder.suppressed.kept
    }

    /// One thread's state: its own cat-file and pipeline.
    struct Session {
        let scanner: HistoryScanner
        let git: Git
        let log: CommitLog?
        var outcome: Outcome
        let reader: CatFileReader
        let pipeline: BufferPipeline
        var failed = Set<[Int]>()

        init(scanner: HistoryScanner, git: Git, log: CommitLog?, outcome: Outcome) {
            self.scanner = scanner
            self.git = git
            self.log = log
            self.outcome = outcome
            reader = CatFileReader(git: git)
            pipeline = BufferPipeline(ruleSet: scanner.ruleSet, options: scanner.options)
        }

        var options: ScanOptions { scanner.options }

        mutating func issue(_ place: String, _ message: String) {
            outcome.issues.append(ScanIssue(path: "", message: place + ": " + message))
        }

        mutating func run() {
            let history = scanner.history
            let selecting = !history.since.isEmpty || !history.ranges.isEmpty
            var commits: [ObjectID] = []
            if let log {
                // A failed listing is the blob scan's error entry (the same rev-list).
                commits = log.listedCommits()
            } else {
                // Only without the blob scan's listing is the selection worked out again
                // (each `--since` and `--range` revision is one `git rev-parse`).
                let selection: CommitSelection
                do { selection = try HistoryScanner.selection(git, history) } catch {
                    issue("commit messages", "not scanned: \(error)")
                    return
                }
                do { commits = try CommitTexts.commits(git, selection: selection) } catch {
                    issue("commit messages", "not scanned: \(error)")
                }
            }
            // The progress line's commit total: this listing is the same selection as the
            // blob scan's and ends long before it.
            scanner.progress.commitsTotal.store(commits.count, ordering: .relaxed)
            var unreachableTags: [ObjectID] = []
            if history.allObjects {
                do {
                    let all = try git.allCommitsAndTags()
                    let listed = Set(commits)
                    commits += all.commits.filter { !listed.contains($0) }
                    unreachableTags = all.tags
                } catch {
                    issue("unreachable commits and tags", "not scanned: \(error)")
                }
            }
            scanMessages(commits)
            let selected: Set<ObjectID>? = selecting ? Set(commits) : nil
            // One listing of the refs for the tags and the notes.
            let refs = Result { try CommitTexts.RefListing(git) }
            scanTags(selected: selected, endpoints: selecting ? rangeEnds(history) : unreachableTags, refs: refs)
            scanNotes(selected: selected, refs: refs)
        }

        /// The range ends (`B` of `A..B`) that name tag objects.
        func rangeEnds(_ history: HistoryOptions) -> [ObjectID] {
            history.ranges.compactMap { range in
                let end = range.components(separatedBy: "..").last ?? range
                return (try? CommitTexts.tagObject(git, end)) ?? nil
            }
        }

        /// The messages are read as raw commit objects through a `cat-file` of their own, not
        /// taken from the listing's `diff-tree --format` (or `rev-list --format`), although
        /// those processes inflate every commit already: git's pretty formats (`%B`, `raw`)
        /// treat the message as a C string and stop at its first NUL (git 2.39: a message
        /// `before\0after` prints as `before`), and the raw format also drops trailing
        /// blanks, so a key after a NUL would go unscanned without a trace, and no format
        /// placeholder gives the object's size to tell. The price, measured on psf/requests
        /// (6,708 messages, `perf record` of a whole run with decoding off): this `cat-file`
        /// 4.5% of the run's CPU (keyshape and git), scanning the messages 1.4%.
        mutating func scanMessages(_ commits: [ObjectID]) {
            var start = 0
            while start < commits.count {
                let batch = Array(commits[start..<min(commits.count, start + 2048)])
                start += batch.count
                reader.read(batch, maxSize: options.inMemoryLimit) { i, result in
                    let id = batch[i]
                    switch result {
                    case .object(let type, let bytes):
                        guard type == "commit" else { issue("commit \(id.hex)", "git gave a \(DisplayText.escaped(type)), not a commit; its message was not scanned"); return }
                        scan(UnsafeRawBufferPointer(rebasing: bytes[CommitTexts.messageRange(bytes)]), at: Place(.message, commit: id))
                    default:
                        unread(result, "commit \(id.hex)", what: "its message")
                    }
                }
            }
        }

        /// A tag object read, with its message copied (tags are few and small).
        struct TagObject {
            var parsed: CommitTexts.ParsedTag
            var message: [UInt8]
        }

        mutating func scanTags(selected: Set<ObjectID>?, endpoints: [ObjectID], refs: Result<CommitTexts.RefListing, Error>) {
            var level: [ObjectID] = endpoints
            do {
                level += try refs.get().annotatedTags.map(\.tag)
            } catch {
                issue("annotated tags", "not scanned: \(error)")
            }
            var tags: [ObjectID: TagObject] = [:]
            var order: [ObjectID] = []
            var seen = Set<ObjectID>()
            let fromEndpoints = Set(endpoints)
            // Each round reads the tags the previous round's tags point at (a tag of a tag).
            while !level.isEmpty {
                let batch = level.filter { seen.insert($0).inserted }
                level = []
                reader.read(batch, maxSize: options.inMemoryLimit) { i, result in
                    let id = batch[i]
                    switch result {
                    case .object(let type, let bytes):
                        guard type == "tag" else { issue("tag object \(id.hex)", "git gave a \(DisplayText.escaped(type)), not a tag; its message was not scanned"); return }
                        let parsed = CommitTexts.parseTag(bytes)
                        tags[id] = TagObject(parsed: parsed, message: Array(bytes[parsed.message]))
                        order.append(id)
                        if parsed.type == "tag", let next = parsed.object, !seen.contains(next) { level.append(next) }
                    default:
                        unread(result, "tag object \(id.hex)", what: "its message")
                    }
                }
            }
            // The object a chain ends at; and whether a chain reaches a range end.
            func peeled(_ id: ObjectID) -> ObjectID? {
                var current = id
                var visited = Set<ObjectID>()
                while let t = tags[current], t.parsed.type == "tag", let next = t.parsed.object, visited.insert(current).inserted {
                    current = next
                }
                return tags[current]?.parsed.object
            }
            var pushed = Set<ObjectID>()
            for e in endpoints {
                var current: ObjectID? = e
                while let c = current, let t = tags[c], pushed.insert(c).inserted { current = t.parsed.type == "tag" ? t.parsed.object : nil }
            }
            for id in order {
                let t = tags[id]!
                guard let target = peeled(id) else {
                    issue("tag object \(id.hex)", "names no object it points at; its message was scanned at no commit")
                    continue
                }
                if let selected, !pushed.contains(id), !fromEndpoints.contains(id), !selected.contains(target) { continue }
                t.message.withUnsafeBytes { raw in
                    scan(raw, at: Place(.tag(name: PathText.display(t.parsed.name)), commit: target))
                }
            }
        }

        mutating func scanNotes(selected: Set<ObjectID>?, refs listing: Result<CommitTexts.RefListing, Error>) {
            let refs: [CommitTexts.NotesRef]
            do { refs = try listing.get().notesRefs } catch {
                issue("notes", "not scanned: \(error)")
                return
            }
            for ref in refs {
                var notes: [CommitTexts.Note]
                do { notes = try CommitTexts.notes(git, in: ref.commit) } catch {
                    issue("notes \(DisplayText.escaped(ref.ref))", "not scanned: \(error)")
                    continue
                }
                if let selected { notes = notes.filter { selected.contains($0.annotated) } }
                reader.read(notes.map(\.blob), maxSize: options.inMemoryLimit) { i, result in
                    let note = notes[i]
                    switch result {
                    case .object(_, let bytes):
                        scan(bytes, at: Place(.note(notesRef: ref.ref), commit: note.annotated))
                    default:
                        unread(result, "note \(note.blob.hex) in \(DisplayText.escaped(ref.ref))", what: "it")
                    }
                }
            }
        }

        mutating func unread(_ result: CatFileReader.Result, _ place: String, what: String) {
            switch result {
            case .tooLarge(_, let size): issue(place, "\(size) bytes, over the size limit; \(what) was not scanned")
            case .missing: issue(place, "missing from the object store; \(what) was not scanned")
            case .failed(let message): issue(place, message)
            case .stream, .object: issue(place, "unexpected answer from git; \(what) was not scanned")
            }
        }

        /// Which text a buffer is.
        struct Place {
            var field: Provenance.CommitTextField
            var commit: ObjectID

            init(_ field: Provenance.CommitTextField, commit: ObjectID) {
                self.field = field
                self.commit = commit
            }

            var provenance: Provenance { .commitText(commit: commit.hex, field: field) }

            /// For error entries: never the text, names escaped.
            var description: String {
                switch field {
                case .tag(let name): return "tag \(DisplayText.escaped(name)) at \(commit.hex)"
                case .note(let ref): return "note on \(commit.hex) in \(DisplayText.escaped(ref))"
                case .message: return "commit \(commit.hex) message"
                }
            }
        }

        /// One text through the pipeline as text (a message holding a NUL is still a
        /// message: its line and column are what the contract reports), then the builder.
        mutating func scan(_ text: UnsafeRawBufferPointer, at place: Place) {
            outcome.texts += 1
            outcome.bytes += text.count
            scanner.progress.bytesDone.add(text.count, ordering: .relaxed)
            guard text.count > 0 else { return }
            let rules = pipeline.rules
            var found: [BufferFinding] = []
            var failures: [RuleFailure] = []
            pipeline.scan(part: text, layout: nil, context: InputPlace(path: nil, commit: place.commit.hex),
                          onFinding: { found.append($0) }, onFailure: { failures.append($0) })
            for failure in failures where failed.insert([outcome.texts] + failure.key).inserted {
                issue(place.description, failure.describe(ruleId: rules[failure.ruleIndex].id, unit: "text"))
            }
            // The provenance (the commit's hex name) only for a text that gave something.
            guard !found.isEmpty else { return }
            let provenance = place.provenance
            for f in found {
                let rule = rules[f.ruleIndex]
                if rule.path != nil { continue }  // about files; a message has no path
                let location = Location(f, provenance: ProvenanceStep.apply(f.steps, to: provenance))
                if let finding = outcome.builder.build(rule: rule, location: location, secretHash: f.secretHash, suppression: f.suppression,
                                                       tags: f.tags) {
                    outcome.findings.append(finding)
                }
            }
        }
    }
}
