import CredentialStore
import Foundation

/// What a user attaches to a bug report: connection states and recent log records, all
/// redacted. Built from `ConnectionStatus` (which holds at most a four-character masked
/// hint, dropped here too) and `LogRecord`s (already redacted).
public struct DiagnosticsReport: Encodable, Sendable {
    public struct ConnectionSummary: Encodable, Sendable {
        public var connectionID: RedactedText
        public var provider: RedactedText
        public var origin: RedactedText
        public var state: String
        public var readiness: String
        public var consecutiveFailures: Int
        public var lastFailure: String?
        public var pendingCleanup: Int
    }

    public var generatedAt: Date
    public var connections: [ConnectionSummary]
    public var recentLog: [LogRecord]
    public var errors: [RedactedText]

    public static func make(manager: ConnectionManager, logger: ClientLogger, recentLog: [LogRecord],
                            errors: [Error] = []) -> DiagnosticsReport {
        var summaries: [ConnectionSummary] = []
        var problems = errors.map(logger.describe)
        do {
            for record in try manager.records() {
                do {
                    let status = try manager.status(of: record.id)
                    let readiness = (try? BackupService(manager: manager, logger: logger).readiness(of: record.id))?.description ?? "unknown"
                    summaries.append(ConnectionSummary(
                        connectionID: logger.redact(record.id), provider: logger.redact(record.provider.rawValue),
                        origin: logger.redact(Origin(url: record.baseURL)?.description ?? "invalid URL"),
                        state: status.state.rawValue, readiness: readiness,
                        consecutiveFailures: status.health.consecutiveFailures,
                        lastFailure: status.health.lastFailure.map { failure in
                            failure.reason.rawValue + (failure.httpStatus.map { " (HTTP \($0))" } ?? "")
                        },
                        pendingCleanup: status.pendingCleanup.count))
                } catch {
                    problems.append(logger.describe(error))
                }
            }
        } catch {
            problems.append(logger.describe(error))
        }
        return DiagnosticsReport(generatedAt: Date(), connections: summaries, recentLog: recentLog, errors: problems)
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }
}
