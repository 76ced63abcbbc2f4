import Foundation
import GitHistory

/// `keyshape hook install [REPO] [--pre-push] [--force]`: writes a pre-commit hook that runs
/// `keyshape staged` (or a pre-push hook that runs `keyshape history` on the pushed
/// commits) into the repository's hooks folder, honouring `core.hooksPath`.
enum HookCommand {
    static let marker = "# installed by keyshape hook install"

    static func run(_ inv: Invocation) throws -> Int32 {
        guard inv.positionals.first == "install" else {
            throw UsageError(message: "hook: expected `install`")  // never echoes the argument (ArgumentParser.looksLikeFlagName)
        }
        let repo = try GitCommandSupport.repository(inv, skipping: 1)
        // Writing into a repository: git's own ownership check applies (no safe.directory override),
        // and the user's config is read so a global core.hooksPath is honoured.
        var options = Git.Options()
        options.trustForeignOwner = false
        let git: Git
        do { git = try Git(repository: repo, options: options) } catch { throw GitCommandSupport.describe(error) }
        let hooksDir = try hooksFolder(git)
        let name = inv.prePush ? "pre-push" : "pre-commit"
        let hookPath = (hooksDir as NSString).appendingPathComponent(name)
        let fm = FileManager.default
        if fm.fileExists(atPath: hookPath) {
            let existing = (try? String(contentsOfFile: hookPath, encoding: .utf8)) ?? ""
            if !existing.contains(marker) {
                guard inv.force else {
                    throw UsageError(message: "\(hookPath): a \(name) hook keyshape did not write is already there; not replacing it (use --force to replace it, keeping a copy as \(name).keyshape-backup, or call `keyshape \(inv.prePush ? "history" : "staged")` from it yourself)")
                }
                let backup = hookPath + ".keyshape-backup"
                try? fm.removeItem(atPath: backup)
                do { try fm.moveItem(atPath: hookPath, toPath: backup) } catch {
                    throw UsageError(message: "\(hookPath): cannot move the existing hook aside (\(FileErrors.describe(error)))")
                }
                Terminal.err("keyshape: note: the previous \(name) hook is kept as \(backup)\n")
            }
        }
        do {
            try fm.createDirectory(atPath: hooksDir, withIntermediateDirectories: true)
            try Data(script(prePush: inv.prePush).utf8).write(to: URL(fileURLWithPath: hookPath))
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hookPath)
        } catch {
            throw UsageError(message: "\(hookPath): cannot write the hook (\(FileErrors.describe(error)))")
        }
        Terminal.outLine("installed \(name) hook: \(hookPath)")
        return 0
    }

    /// `git rev-parse --git-path hooks` with the user's own config (core.hooksPath, global or local).
    static func hooksFolder(_ git: Git) throws -> String {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("GIT_") { env[key] = nil }
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_OPTIONAL_LOCKS"] = "0"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: git.executable)
        p.arguments = ["--no-pager", "-C", git.root, "-c", "core.fsmonitor=false", "rev-parse", "--git-path", "hooks"]
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { throw UsageError(message: "git rev-parse --git-path hooks: cannot start git") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw UsageError(message: "git rev-parse --git-path hooks failed: \(String(decoding: errData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        return path.hasPrefix("/") ? path : (git.root as NSString).appendingPathComponent(path)
    }

    /// The keyshape executable that is running, for the hook to call.
    static var selfPath: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    static func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static func script(prePush: Bool) -> String {
        let header = """
        #!/bin/sh
        \(marker)\(prePush ? " --pre-push" : "") (keyshape-hook v1)
        # Reinstalling replaces this file. To skip it once: git \(prePush ? "push" : "commit") --no-verify
        KEYSHAPE=\(shellQuote(selfPath))
        [ -x "$KEYSHAPE" ] || KEYSHAPE=keyshape

        """
        if !prePush {
            return header + """
            # Blocks the commit when what is staged adds a secret (locations only are printed).
            exec "$KEYSHAPE" staged --no-progress

            """
        }
        return header + """
        # Scans the commits being pushed; stdin has one line per ref:
        #   <local ref> <local oid> <remote ref> <remote oid>
        remote="$1"
        status=0
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
            "$KEYSHAPE" history --no-progress "$@" || status=$?
        done
        exit $status

        """
    }
}
