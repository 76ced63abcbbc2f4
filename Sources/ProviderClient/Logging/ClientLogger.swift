import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one logger every component of the client uses. It owns the redactor, so there is
/// exactly one place where text becomes loggable: messages, field values, URLs, bodies
/// and error strings go through `Redactor`; header values through `SensitiveHeaders`.
///
/// Diagnostics, crash breadcrumbs and analytics text are built from `redact(_:)` too,
/// which is how `401 request failed: Authorization=Bearer sk-…` becomes safe before any
/// of them holds it.
public final class ClientLogger: Sendable {
    public let redactor: Redactor
    public let minimumLevel: LogLevel
    private let sink: LogSink?

    public init(sink: LogSink?, redactor: Redactor = .fallbackOnly, minimumLevel: LogLevel = .info) {
        self.sink = sink
        self.redactor = redactor
        self.minimumLevel = minimumLevel
    }

    /// A logger that drops everything (still usable for `redact`).
    public static let disabled = ClientLogger(sink: nil)

    public func redact(_ text: String) -> RedactedText {
        redactor.redact(text)
    }

    /// A description of any error, redacted. Use this for diagnostics and crash reports
    /// instead of `String(describing: error)`.
    public func describe(_ error: Error) -> RedactedText {
        redactor.redact(String(describing: error))
    }

    public func log(_ level: LogLevel, _ category: LogCategory, _ message: String, connectionID: String? = nil,
                    fields: [String: String] = [:]) {
        guard let sink, level >= minimumLevel else { return }
        sink.write(LogRecord(date: Date(), level: level, category: category, connectionID: connectionID.map(redactor.redact),
                             message: redactor.redact(message),
                             fields: fields.sorted { $0.key < $1.key }.map {
                                 LogRecord.Field(name: redactor.redact($0.key), value: redactor.redact($0.value))
                             }))
    }

    /// A crash-reporter breadcrumb: same redaction, its own category.
    public func breadcrumb(_ message: String, connectionID: String? = nil) {
        log(.info, .breadcrumb, message, connectionID: connectionID)
    }

    /// Logs an outgoing request: method, redacted URL and headers with every sensitive
    /// value replaced. The body is logged only at debug level, redacted.
    public func logRequest(_ request: URLRequest, sensitiveHeaders: SensitiveHeaders, connectionID: String?) {
        guard sink != nil, minimumLevel <= .info else { return }
        var fields: [String: String] = [:]
        for header in sensitiveHeaders.redacted(request.allHTTPHeaderFields ?? [:], with: redactor) {
            fields["header." + header.name] = header.value.text
        }
        if minimumLevel <= .debug, let body = request.httpBody {
            fields["body"] = String(decoding: body.prefix(4096), as: UTF8.self)
        }
        log(.info, .request, "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")", connectionID: connectionID,
            fields: fields)
    }

    public func logResponse(_ response: HTTPURLResponse, connectionID: String?, sensitiveHeaders: SensitiveHeaders) {
        guard sink != nil, minimumLevel <= .info else { return }
        var fields: [String: String] = ["status": String(response.statusCode)]
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        for header in sensitiveHeaders.redacted(headers, with: redactor) {
            fields["header." + header.name] = header.value.text
        }
        log(response.statusCode < 400 ? .info : .warning, .response, "HTTP \(response.statusCode)",
            connectionID: connectionID, fields: fields)
    }
}
