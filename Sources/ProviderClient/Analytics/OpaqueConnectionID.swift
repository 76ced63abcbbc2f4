import Foundation

/// The connection as analytics sees it: a random id local to this installation. The
/// connection's own id is user-chosen text (a name, possibly something private), so it
/// never leaves the device; this one says nothing about it.
public struct OpaqueConnectionID: Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    init() {
        rawValue = UUID().uuidString.lowercased()
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard UUID(uuidString: text) != nil else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an opaque connection id")
        }
        rawValue = text.lowercased()
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

/// Assigns opaque ids to connections and remembers them; the app persists `snapshot`.
public final class AnalyticsIdentities: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String: OpaqueConnectionID]

    public init(snapshot: [String: OpaqueConnectionID] = [:]) {
        ids = snapshot
    }

    public func id(for connectionID: String) -> OpaqueConnectionID {
        lock.lock(); defer { lock.unlock() }
        if let existing = ids[connectionID] { return existing }
        let created = OpaqueConnectionID()
        ids[connectionID] = created
        return created
    }

    /// Forget a deleted connection; a new connection with the same name gets a new id.
    public func forget(_ connectionID: String) {
        lock.lock(); defer { lock.unlock() }
        ids.removeValue(forKey: connectionID)
    }

    public var snapshot: [String: OpaqueConnectionID] {
        lock.lock(); defer { lock.unlock() }
        return ids
    }
}
