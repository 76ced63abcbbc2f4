import Foundation
import ScanCore
import ScanPipeline
import CommandLineFlags

/// `keyshape hook install [REPO] [--pre-push] [--force]`: writes a pre-commit hook that runs
/// `keyshape staged` (or a pre-push hook that runs `keyshape history` on the pushed
/// commits) into the repository's hooks folder, honouring `core.hooksPath`. A hook that is
/// already there is chained (moved to HOOK.keyshape-chained and run first by keyshape's),
/// or with `--force` replaced (kept as HOOK.keyshape-backup).
/// `keyshape hook uninstall [REPO] [--pre-push]` removes only a hook keyshape wrote, and
/// puts back the hook it chained or replaced.
public enum HookCommand {
    static let marker = "# installed by keyshape hook install"
    static let chainedSuffix = ".keyshape-chained"
    static let backupSuffix = ".keyshape-backup"

    /// - Parameter arguments: `install` or `uninstall`, and the repository (default `.`).
    public static func run(_ arguments: [String], _ flags: HookInstallFlags, _ context: RunContext) throws -> Int32 {
        // The word is not echoed: text from the command line is printed only when it is a path.
        switch arguments.first {
        case "install": return try install(arguments, flags, context)
        case "uninstall": return try uninstall(arguments, flags, context)
        default: throw UsageError(message: "hook: expected `install` or `uninstall`")
        }
    }

    /// The hook's path, with git's own ownership check applied (no safe.directory override: this
    /// writes into the repository) and the user's config read so a global core.hooksPath counts;
    /// git runs only through the scanner's isolated runner, so nothing the repository configures
    /// (core.fsmonitor, …) is run.
    static func hookLocation(_ arguments: [String], _ flags: HookInstallFlags) throws -> (folder: String, path: String, name: String) {
        let repo = try GitCommandSupport.repository(arguments, of: .hook, skipping: 1)
        let git: Repository
        do { git = try Repository(path: repo, trustForeignOwner: false) } catch { throw GitCommandSupport.describe(error) }
        let hooksDir: String
        do { hooksDir = try git.hooksFolder() } catch { throw GitCommandSupport.describe(error) }
        let name = flags.prePush ? "pre-push" : "pre-commit"
        return (hooksDir, (hooksDir as NSString).appendingPathComponent(name), name)
    }

    /// Whether `path` is a hook keyshape wrote (its marker line), reading no more than a hook's worth.
    static func isOurs(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return String(decoding: head, as: UTF8.self).contains(marker)
    }

    static func exists(_ path: String) -> Bool {
        // A dangling symbolic link is still a hook someone put there.
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    static func install(_ arguments: [String], _ flags: HookInstallFlags, _ context: RunContext) throws -> Int32 {
        let (hooksDir, hookPath, name) = try hookLocation(arguments, flags)
        let fm = FileManager.default
        if exists(hookPath) && !isOurs(hookPath) {
            if flags.force {
                let backup = hookPath + backupSuffix
                try? fm.removeItem(atPath: backup)
                do { try fm.moveItem(atPath: hookPath, toPath: backup) } catch {
                    throw UsageError(message: "\(hookPath): cannot move the existing hook aside (\(FileErrors.describe(error)))")
                }
                context.err("keyshape: note: the previous \(name) hook is kept as \(backup) (not run; `keyshape hook uninstall` puts it back)\n")
            } else {
                let chained = hookPath + chainedSuffix
                guard !exists(chained) else {
                    throw UsageError(message: "\(chained) is already there, so the \(name) hook keyshape did not write cannot be chained; move one of them away, or use --force to replace the hook (kept as \(name)\(backupSuffix))")
                }
                do { try fm.moveItem(atPath: hookPath, toPath: chained) } catch {
                    throw UsageError(message: "\(hookPath): cannot move the existing hook aside (\(FileErrors.describe(error)))")
                }
                context.err("keyshape: note: the existing \(name) hook is chained: it now runs from \(chained) before keyshape, and the \(flags.prePush ? "push" : "commit") fails if either fails (`keyshape hook uninstall` puts it back; --force replaces it instead)\n")
            }
        }
        do {
            try fm.createDirectory(atPath: hooksDir, withIntermediateDirectories: true)
            try Data(script(prePush: flags.prePush, keyshape: context.executablePath()).utf8).write(to: URL(fileURLWithPath: hookPath))
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hookPath)
        } catch {
            throw UsageError(message: "\(hookPath): cannot write the hook (\(FileErrors.describe(error)))")
        }
        context.outLine("installed \(name) hook: \(hookPath)")
        return 0
    }

    static func uninstall(_ arguments: [String], _ flags: HookInstallFlags, _ context: RunContext) throws -> Int32 {
        let (_, hookPath, name) = try hookLocation(arguments, flags)
        let fm = FileManager.default
        guard exists(hookPath) else {
            context.outLine("no \(name) hook at \(hookPath); nothing to remove")
            return 0
        }
        guard isOurs(hookPath) else {
            throw UsageError(message: "\(hookPath): this \(name) hook was not written by keyshape; left as it is")
        }
        do { try fm.removeItem(atPath: hookPath) } catch {
            throw UsageError(message: "\(hookPath): cannot remove the hook (\(FileErrors.describe(error)))")
        }
        // The chained hook ran until now, so it is the one to put back; a backup was replaced by --force.
        for previous in [hookPath + chainedSuffix, hookPath + backupSuffix] where exists(previous) {
            do { try fm.moveItem(atPath: previous, toPath: hookPath) } catch {
                throw UsageError(message: "\(previous): cannot put the previous hook back (\(FileErrors.describe(error)))")
            }
            context.outLine("removed keyshape's \(name) hook; restored the previous one from \(previous)")
            return 0
        }
        context.outLine("removed keyshape's \(name) hook: \(hookPath)")
        return 0
    }

    /// The file a hook run (`--hook`) takes as its baseline when none is given: at the top of
    /// the work tree, where git and the pre-commit framework run hooks.
    static let baselineName = ".keyshape-baseline.json"

    static func adoptBaseline(_ inv: inout Invocation, repo: String) {
        guard inv.report.hookMode, inv.config.baseline == nil else { return }
        let path = (repo as NSString).appendingPathComponent(baselineName)
        if FileManager.default.fileExists(atPath: path) { inv.config.baseline = path }
    }

    /// The closing line of a blocked `staged --hook` or `history --hook` run: why the commit
    /// (or push) was stopped and what to do. Counts only; no location, no value.
    static func stopLine(_ result: ScanResult, push: Bool) -> String {
        let what = push ? "push" : "commit"
        let skip = push ? "`git push --no-verify`" : "`git commit --no-verify`"
        if !result.issues.isEmpty {
            return "keyshape: \(what) stopped: part of the \(push ? "pushed commits" : "staged changes") could not be scanned (errors above), and keyshape blocks what it cannot check; fix what the errors name, or \(skip) skips this check once"
        }
        let n = result.findings.count
        let things = n == 1 ? "a secret" : "\(n) secrets"
        let added = push ? "the pushed commits add \(things)" : "the staged changes add \(things)"
        return "keyshape: \(what) stopped: \(added) (locations above); rotate a real key and remove it\(push ? " from those commits" : ""), or mark a false positive with `keyshape:allow` on its line or in the baseline .keyshape-baseline.json (--write-baseline); \(skip) skips this check once"
    }

    static func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// - Parameter keyshape: the executable the hook runs (the one installing it).
    static func script(prePush: Bool, keyshape: String) -> String {
        let header = """
        #!/bin/sh
        \(marker)\(prePush ? " --pre-push" : "") (keyshape-hook v2)
        # Reinstalling replaces this file; `keyshape hook uninstall\(prePush ? " --pre-push" : "")` removes it and puts
        # back the hook it chained. To skip it once: git \(prePush ? "push" : "commit") --no-verify
        KEYSHAPE=\(shellQuote(keyshape))
        [ -x "$KEYSHAPE" ] || KEYSHAPE=keyshape
        # The hook that was here before keyshape's (if any): it runs first, as git would run it,
        # and the \(prePush ? "push" : "commit") fails if either hook fails.
        chained="$0\(chainedSuffix)"
        status=0

        """
        if !prePush {
            return header + """
            if [ -x "$chained" ]; then "$chained" "$@" || status=$?; fi
            # Blocks the commit when what is staged adds a secret (locations only are printed);
            # prints nothing when it does not.
            "$KEYSHAPE" staged --hook || status=$?
            exit $status

            """
        }
        return header + """
        # Both hooks read the same ref lines, one per ref: <local ref> <local oid> <remote ref> <remote oid>
        refs=$(cat)
        if [ -x "$chained" ]; then
            { [ -z "$refs" ] || printf '%s\\n' "$refs"; } | "$chained" "$@" || status=$?
        fi
        remote="$1"
        while read -r local_ref local_oid remote_ref remote_oid; do
            case "$local_oid" in *[!0]*) ;; *) continue ;; esac   # a deletion pushes no commits
            if [ -n "${remote_oid##*[!0]*}" ] || ! git cat-file -e "$remote_oid^{commit}" 2>/dev/null; then
                # A new ref on the remote (or one we do not have): what no remote-tracking ref has.
                set -- --range "$local_oid"
                for known in $(git for-each-ref --format='%(objectname)' "refs/remotes/$remote/"); do
                    set -- "$@" --since "$known"
                done
            else
                set -- --range "$remote_oid..$local_oid"
            fi
            "$KEYSHAPE" history --hook "$@" || status=$?
        done <<EOF
        $refs
        EOF
        exit $status

        """
    }
}
