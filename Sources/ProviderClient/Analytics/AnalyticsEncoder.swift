import Foundation

/// Why an event was not encoded. Names the field, never its content.
public enum AnalyticsEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case credentialDetected(field: String)

    public var description: String {
        switch self {
        case .credentialDetected(let field): return "analytics event not encoded: field \(field) looks like it carries a credential"
        }
    }
}

/// Encodes events to JSON and refuses any event that would carry a credential: after
/// encoding, every string in the output (keys and values) is checked with the redactor
/// and against the names credentials travel under. `RedactedText` was checked when it was
/// made; this second look covers the provider kind (user-named for custom endpoints) and
/// text redacted by a weaker redactor than this one (fallback rules only, older rules).
public struct AnalyticsEncoder: Sendable {
    public let redactor: Redactor

    public init(redactor: Redactor) {
        self.redactor = redactor
    }

    public func encode(_ event: AnalyticsEvent) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(event)
        let object = try JSONSerialization.jsonObject(with: data)
        try check(object, path: "event")
        return data
    }

    private func check(_ value: Any, path: String) throws {
        switch value {
        case let dictionary as [String: Any]:
            for (key, child) in dictionary {
                if path == "event.properties", AnalyticsPropertyName(key) == nil {
                    throw AnalyticsEncodingError.credentialDetected(field: "property")
                }
                if redactor.containsCredential(key) { throw AnalyticsEncodingError.credentialDetected(field: "property") }
                try check(child, path: path + "." + (AnalyticsPropertyName(key)?.rawValue ?? "property"))
            }
        case let array as [Any]:
            for child in array { try check(child, path: path) }
        case let text as String:
            if redactor.containsCredential(text) || text.contains(Redactor.uncheckedPlaceholder) {
                throw AnalyticsEncodingError.credentialDetected(field: path)
            }
        default:
            break
        }
    }
}

/// Receives encoded events (one JSON object each) for the app's analytics pipeline.
public protocol AnalyticsSink: AnyObject, Sendable {
    func send(_ encodedEvent: Data)
}

/// Builds, encodes and delivers events; an event that fails encoding is dropped and the
/// drop is logged (by field name only).
public final class AnalyticsRecorder: Sendable {
    public let identities: AnalyticsIdentities
    private let sink: AnalyticsSink
    private let encoder: AnalyticsEncoder
    private let logger: ClientLogger

    public init(sink: AnalyticsSink, identities: AnalyticsIdentities = AnalyticsIdentities(), logger: ClientLogger) {
        self.sink = sink
        self.identities = identities
        self.logger = logger
        encoder = AnalyticsEncoder(redactor: logger.redactor)
    }

    public func record(_ event: AnalyticsEvent) {
        do {
            sink.send(try encoder.encode(event))
        } catch {
            logger.log(.warning, .analytics, String(describing: error))
        }
    }
}
