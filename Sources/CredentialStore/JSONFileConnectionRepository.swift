import Foundation

/// Connection metadata in one JSON file, for the CLI. Only metadata goes
/// here; the file is still written 0600 because connection names and base
/// URLs can be private.
public final class JSONFileConnectionRepository: ConnectionRepository, @unchecked Sendable {
    public enum FileError: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
            case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
            }
        }
    }

    public let fileURL: URL
    private let lock = NSLock()

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// `$XDG_CONFIG_HOME/keyshape/connections.json` (or `~/.config/...`).
    public static func defaultFileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("keyshape", isDirectory: true).appendingPathComponent("connections.json")
    }

    public func entry(for id: String) throws -> ConnectionEntry? {
        try lock.critical { try load()[id] }
    }

    public func allEntries() throws -> [ConnectionEntry] {
        try lock.critical { try load().values.sorted { $0.record.id < $1.record.id } }
    }

    public func save(_ entry: ConnectionEntry) throws {
        try lock.critical {
            var entries = try load()
            entries[entry.record.id] = entry
            try write(entries)
        }
    }

    public func remove(id: String) throws {
        try lock.critical {
            var entries = try load()
            guard entries.removeValue(forKey: id) != nil else { return }
            try write(entries)
        }
    }

    public func removeAll() throws {
        try lock.critical { try write([:]) }
    }

    private func load() throws -> [String: ConnectionEntry] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [:] }
        do {
            let data = try Data(contentsOf: fileURL)
            let list = try JSONDecoder.connections.decode([ConnectionEntry].self, from: data)
            return Dictionary(list.map { ($0.record.id, $0) }, uniquingKeysWith: { _, last in last })
        } catch {
            throw FileError.unreadable(path: fileURL.path, reason: String(describing: error))
        }
    }

    // Write to a private temporary file and rename, so a crash never leaves
    // a half-written file and the content is never world-readable.
    private func write(_ entries: [String: ConnectionEntry]) throws {
        let directory = fileURL.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let list = entries.values.sorted { $0.record.id < $1.record.id }
            let data = try JSONEncoder.connections.encode(list)
            guard FileManager.default.createFile(atPath: temporary.path, contents: data,
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw FileError.unwritable(path: temporary.path, reason: "create failed")
            }
            if rename(temporary.path, fileURL.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw FileError.unwritable(path: fileURL.path, reason: reason)
            }
        } catch let error as FileError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FileError.unwritable(path: fileURL.path, reason: String(describing: error))
        }
    }
}

extension JSONEncoder {
    static var connections: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    static var connections: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
