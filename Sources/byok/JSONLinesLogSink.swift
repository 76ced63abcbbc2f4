import Foundation
import ProviderClient

/// Writes the client's (already redacted) log records as JSON lines to a file or stderr.
final class JSONLinesLogSink: LogSink, @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    init(handle: FileHandle) {
        self.handle = handle
    }

    func write(_ record: LogRecord) {
        guard let data = try? encoder.encode(record) else { return }
        lock.lock(); defer { lock.unlock() }
        handle.write(data + Data("\n".utf8))
    }
}
