import Foundation

/// One server-sent event.
struct ServerSentEvent: Equatable, Sendable {
    var event: String?
    var data: String
    var id: String?
}

/// Incremental parser for `text/event-stream` (the WHATWG format both APIs use): feed it
/// bytes as they arrive, in chunks cut anywhere, and it returns the events completed so
/// far. Lines end in LF, CRLF or CR; a CR at the end of a chunk waits for the next chunk
/// to tell CRLF from CR. Comments (`:` lines) are dropped.
struct ServerSentEventParser {
    private var pending: [UInt8] = []
    private var sawCRAtEnd = false
    private var eventName: String?
    private var dataLines: [String] = []
    private var lastID: String?
    /// Bounds a line so a server that never sends a newline cannot grow memory forever.
    static let maximumLineLength = 4 << 20

    struct LineTooLong: Error {}

    mutating func feed(_ data: Data) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in data {
            if sawCRAtEnd {
                sawCRAtEnd = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A:
                if let event = takeLine() { events.append(event) }
            case 0x0D:
                if let event = takeLine() { events.append(event) }
                sawCRAtEnd = true
            default:
                pending.append(byte)
                if pending.count > Self.maximumLineLength { throw LineTooLong() }
            }
        }
        return events
    }

    /// Called at end of stream: an event without its blank line is dispatched anyway, as
    /// some servers close right after the last `data:` line.
    mutating func finish() -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        if !pending.isEmpty, let event = takeLine() { events.append(event) }
        if let event = dispatch() { events.append(event) }
        return events
    }

    private mutating func takeLine() -> ServerSentEvent? {
        let line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event": eventName = String(value)
        case "data": dataLines.append(String(value))
        case "id": lastID = String(value)
        default: break // `retry` and unknown fields
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventName = nil
            dataLines = []
        }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(event: eventName, data: dataLines.joined(separator: "\n"), id: lastID)
    }
}
