import Datastore
import Foundation
import Application
import ScanCore
import ScanPipeline
import CommandLineFlags

/// `keyshape sweep --datastore DB REPO... | --repos FILE`: `history --datastore DB` for each
/// repository, then `scan --datastore DB` of its work tree (the contract's "history (and
/// sources)": what summarize's "still present at HEAD" is read from), `--jobs` repositories
/// at a time, a line per repository as each is done. A bare repository has no sources.
///
/// Each repository is swept by child `keyshape` processes: a repository that makes git or
/// the scanner fail costs its own line and exit status 2, not the sweep. Resumable: a
/// killed sweep leaves the datastore sound (each batch is one transaction), and the next
/// sweep skips each repository the datastore holds complete with the same rules and the same
/// refs (and, with a work tree, a sources scan after that history run with the same rules),
/// and scans one that changed incrementally (`IncrementalHistory`, the per-blob cache).
enum SweepCommand {
    static func run(_ inv: Invocation, _ context: RunContext) throws -> Int32 {
        let db = try DatastoreAccess.path(inv.datastore, for: .sweep)
        var repos = inv.positionals
        if let file = inv.datastore.reposFile {
            let bytes: [UInt8]
            do { bytes = try SettingsFile.contents(of: file, limit: 64 << 20) } catch {
                throw UsageError(message: "\(file): cannot read (\(error.message))")
            }
            repos += try repositories(listedIn: bytes, file: file)
        }
        guard !repos.isEmpty else { throw UsageError(message: "`keyshape sweep` needs repositories (arguments or --repos FILE)") }
        // Refuse a file keyshape did not write before any repository is touched.
        _ = try DatastoreAccess.open(db, create: true)

        let cores = ScanOptions.coreCount
        let parallel = max(1, min(repos.count, inv.limits.jobs ?? max(1, cores / 2)))
        let threads = max(1, cores / parallel)
        let state = SweepState(count: repos.count)
        let list = repos
        let workers = (0..<parallel).map { _ in
            Thread {
                while let (n, repo) = state.next(list) {
                    let (status, text) = sweep(repo, n: n, of: list.count, db: db, inv: inv, threads: threads, context: context)
                    state.finish(status, text)
                }
            }
        }
        for w in workers { w.stackSize = 4 << 20; w.start() }
        state.waitUntilDone()
        let (swept, skipped, failed) = state.tally
        if !inv.report.quiet {
            Terminal.err("keyshape sweep: \(repos.count) repositor\(repos.count == 1 ? "y" : "ies"): \(swept) swept, \(skipped) unchanged (skipped), \(failed) failed; `keyshape report --datastore` shows the findings\n")
        }
        return state.status
    }

    /// The repositories a `--repos` file lists, one a line; blank lines and `#` comments
    /// skipped. A line starting with `-` is refused, naming its number but never echoing it
    /// (it could be anything): a repository is never an option, and `-` alone would make the
    /// sources scan read standard input. (Children get `--` before the repository as well.)
    static func repositories(listedIn bytes: [UInt8], file: String) throws -> [String] {
        var repos: [String] = []
        let lines = String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (n, line) in lines.enumerated() {
            let path = line.trimmingCharacters(in: .whitespaces)
            if path.isEmpty || path.hasPrefix("#") { continue }
            guard !path.hasPrefix("-") else {
                throw UsageError(message: "\(file): line \(n + 1) starts with `-`; a repository is never an option (write ./ before a folder whose name starts with a dash)")
            }
            repos.append(path)
        }
        return repos
    }

    /// One repository: skipped when unchanged, else a child `history` run. Its exit status
    /// (0, 1, 2) and the lines to print.
    static func sweep(_ repo: String, n: Int, of total: Int, db: String, inv: Invocation, threads: Int, context: RunContext) -> (Int32, String) {
        // Written raw (Terminal.progress), so the name is escaped here; the children's lines
        // come escaped already.
        let label = "keyshape sweep: [\(n + 1)/\(total)] \(DisplayText.escaped(repo))"
        let root = ArtifactRoots.repository(repo).sourceRoot
        if let run = unchanged(repo, root: root, db: db, inv: inv, context: context) {
            let findings = run.findings ?? 0
            return (findings > 0 ? 1 : 0, "\(label): unchanged since run \(run.id) (\(findings) finding\(findings == 1 ? "" : "s")), skipped\n")
        }
        var rules: [String] = []
        for path in inv.rules.paths { rules += ["--rules", path] }
        if inv.rules.noBuiltin { rules.append("--no-builtin-rules") }
        for id in inv.rules.enabled { rules += ["--enable-rule", id] }
        for id in inv.rules.disabled { rules += ["--disable-rule", id] }
        if inv.config.noConfig { rules.append("--no-config") }
        if inv.config.ignoreInlineAllow { rules.append("--ignore-inline-allow") }
        let common = ["--datastore", db, "--no-progress", "--quiet", "--jobs", String(threads)] + rules
        // `--` before the repository in every child: a path is never parsed as an option.
        let (status, text) = child(["history"] + common + ["--", repo], label: label, what: "keyshape history")
        guard status != 2 else { return (status, text) }
        let store = try? Datastore(path: db, create: false)
        let findings = ((try? store?.latestHistoryRun(root: root)) ?? nil)?.run.findings ?? 0
        var line = "\(label): \(findings) finding\(findings == 1 ? "" : "s")"
        // The sources at HEAD: a scan of the work tree, recorded under the same root.
        guard hasWorkTree(repo) else { return (status, text + line + "\n") }
        let (scanned, scanText) = child(["scan"] + common + ["--", root], label: label, what: "keyshape scan of the sources")
        guard scanned != 2 else { return (2, text + scanText) }
        let sources = ((try? store?.latestRun(root: root, command: "scan")) ?? nil)?.findings ?? 0
        line += ", \(sources) in the sources at HEAD"
        return (max(status, scanned), text + scanText + line + "\n")
    }

    static func hasWorkTree(_ repo: String) -> Bool {
        guard let repository = try? Repository(path: repo) else { return false }
        return !repository.isBare
    }

    /// One child keyshape run: its exit status (2 when it did not end with 0 or 1) and its
    /// stderr lines (already escaped by the child), with a line saying so when it failed.
    static func child(_ args: [String], label: String, what: String) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: selfPath)
        process.arguments = args
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            return (2, "\(label): could not start \(what) (\(FileErrors.describe(error)))\n")
        }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The child's lines are its own, already escaped; they come with this repository's.
        var text = String(decoding: stderr, as: UTF8.self)
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        guard process.terminationReason == .exit, [0, 1].contains(process.terminationStatus) else {
            return (2, text + "\(label): not swept completely (\(what) exited \(process.terminationReason == .exit ? "\(process.terminationStatus)" : "on a signal"))\n")
        }
        return (process.terminationStatus, text)
    }

    /// The datastore's last history run of `root`, when it is complete, used these rules and
    /// started from exactly the commits the repository has now, and (with a work tree) a
    /// sources scan with the same rules finished after it: nothing to sweep.
    /// `context` gives the rules' warnings a place; the recorder of the run each check
    /// prepares (none: sweep records no run of its own) stays out of it.
    static func unchanged(_ repo: String, root: String, db: String, inv: Invocation, context: RunContext) -> RunInfo? {
        guard let store = try? Datastore(path: db, create: false),
              let last = try? store.latestHistoryRun(root: root), last.run.command == "history", last.run.complete,
              let repository = try? Repository(path: repo), let tips = repository.startingCommits(), tips == last.tips,
              let (_, options) = try? ScanSetup.prepare(inv, roots: [repo], context: context.forAnotherRun()),
              RulesIdentity.hash(inv.rules, options: options) == last.run.rulesHash else { return nil }
        if !repository.isBare {
            // `scan` hashes its own root's config; a sweep passes the same flags to both.
            guard let scan = (try? store.latestRun(root: root, command: "scan")) ?? nil, scan.id > last.run.id,
                  scan.errors == 0 else { return nil }
        }
        return last.run
    }

    /// This executable, for the child runs.
    static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The sweep's queue and tally, shared by its worker threads.
private final class SweepState: @unchecked Sendable {
    private let lock = NSCondition()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private(set) var status: Int32 = 0
    private var swept = 0, skipped = 0, failed = 0

    init(count: Int) { self.count = count }

    func next(_ repos: [String]) -> (Int, String)? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < repos.count else { return nil }
        nextIndex += 1
        return (nextIndex - 1, repos[nextIndex - 1])
    }

    func finish(_ result: Int32, _ text: String) {
        lock.lock(); defer { lock.unlock() }
        Terminal.progress(text)
        if result == 2 { failed += 1; status = 2 } else {
            if text.contains(", skipped\n") { skipped += 1 } else { swept += 1 }
            if result == 1 && status == 0 { status = 1 }
        }
        done += 1
        lock.broadcast()
    }

    func waitUntilDone() {
        lock.lock(); defer { lock.unlock() }
        while done < count { lock.wait() }
    }

    var tally: (Int, Int, Int) {
        lock.lock(); defer { lock.unlock() }
        return (swept, skipped, failed)
    }
}

