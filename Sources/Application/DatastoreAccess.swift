import Datastore
import Foundation
import ScanCore
import ScanPipeline
import CommandLineFlags

/// Opening the `--datastore DB` a command names, with errors that say which file and why
/// (exit 2 in main). A file keyshape did not write is refused before anything writes to it.
public enum DatastoreAccess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `--datastore DB`, which `command` cannot do without.
    public static func path(_ datastore: DatastoreFlags, for command: Invocation.Command) throws -> String {
        guard let path = datastore.path, !path.isEmpty else {
            throw UsageError(message: "`keyshape \(command.rawValue)` needs --datastore DB")
        }
        return path
    }

    /// A writer's connection: created when missing (`create`), else it must exist.
    public static func open(_ path: String, create: Bool) throws -> Datastore {
        do { return try Datastore(path: path, create: create) } catch let e as DatastoreError {
            throw failure(path, e)
        }
    }

    /// A reader's connection (report, summarize): never creates, never writes.
    public static func reader(_ path: String) throws -> Datastore {
        do { return try Datastore(readingAt: path) } catch let e as DatastoreError {
            throw failure(path, e)
        }
    }

    public static func failure(_ path: String, _ error: Error) -> Failure {
        let message = (error as? DatastoreError)?.message ?? "\(error)"
        return Failure(description: "\(path): \(message)")
    }

    /// The git identity of a repository: its root commit ids (sorted, comma-joined), so two
    /// clones are known to be one repository; nil when git cannot say (no commit yet).
    public static func identity(ofRepository root: String) -> String? {
        (try? Repository(path: root))?.rootCommits()
    }
}
