import Foundation
import ProviderClient

/// Writes the client's (already redacted) log records as JSON lines to stderr or a file,
/// through `write`, which never traps on a write error.
final class JSONLinesLogSink: LogSink, @unchecked Sendable {
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    func write(_ record: LogRecord) {
        guard let data = try? encoder.encode(record) else { return }
        lock.lock(); defer { lock.unlock() }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
