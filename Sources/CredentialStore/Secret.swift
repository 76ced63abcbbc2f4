import Foundation

/// A credential value (API key, protected header value).
///
/// Every textual path a value can take by accident — `print`, string
/// interpolation, `dump`, `String(reflecting:)`, debugger summaries, error
/// payloads — prints `<redacted>`. Getting the raw text back is a separate,
/// explicit call (`reveal()` / `withRevealedValue`), so a leak is something
/// a reviewer can grep for. The type is deliberately not `Codable`: a secret
/// must never ride along when a model type is serialised.
public struct Secret: Sendable {
    public static let redactedPlaceholder = "<redacted>"

    // Stored as String because every consumer (HTTP header, libsecret,
    // Keychain data) wants text; a wipeable buffer would be copied to String
    // at each of those boundaries anyway.
    private let storage: String

    public init(_ value: String) {
        storage = value
    }

    /// Decodes UTF-8 from a backend; nil when the bytes are not text.
    public init?(utf8 bytes: some Sequence<UInt8>) {
        guard let text = String(bytes: Array(bytes), encoding: .utf8) else { return nil }
        storage = text
    }

    /// The raw value. Named so that every use is deliberate and easy to audit.
    public func reveal() -> String {
        storage
    }

    /// Scoped access for call sites that only need the value briefly.
    public func withRevealedValue<Result>(_ body: (String) throws -> Result) rethrows -> Result {
        try body(storage)
    }

    public var isEmpty: Bool { storage.isEmpty }

    /// Length in characters; not sensitive, needed for format checks and masking.
    public var characterCount: Int { storage.count }

    /// Lets a caller check that metadata does not embed the value without
    /// revealing it at the call site.
    public func occurs(in text: String) -> Bool {
        !storage.isEmpty && text.contains(storage)
    }
}

extension Secret: Equatable {
    /// Constant-time over the longer input so comparisons do not leak a
    /// matching prefix length through timing.
    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        let a = Array(lhs.storage.utf8)
        let b = Array(rhs.storage.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, TextOutputStreamable {
    public var description: String { Self.redactedPlaceholder }
    public var debugDescription: String { Self.redactedPlaceholder }
    // No children: `dump` and `Mirror` must not reach the stored text.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    public func write<Target: TextOutputStream>(to target: inout Target) {
        target.write(Self.redactedPlaceholder)
    }
}
