/// What a UI may show about a stored credential.
public enum CredentialDisplay: Equatable, Sendable, CustomStringConvertible {
    case notConfigured
    /// The key exists but is too short to reveal any part of it.
    case configured
    /// Bullets plus at most the last four characters.
    case masked(lastFour: String)

    public static let bullets = "••••"

    public var description: String {
        switch self {
        case .notConfigured: return "Not configured"
        case .configured: return "Configured"
        case .masked(let lastFour): return Self.bullets + lastFour
        }
    }
}

extension Secret {
    /// Below this length four characters are too large a share of the key
    /// to show, so the hint degrades to `Configured`.
    public static let minimumLengthForMaskedHint = 16

    /// `••••abcd` for keys long enough, `Configured` otherwise. Never more
    /// than four characters of the value.
    public var maskedHint: CredentialDisplay {
        withRevealedValue { value in
            guard value.count >= Self.minimumLengthForMaskedHint else { return .configured }
            return .masked(lastFour: String(value.suffix(4)))
        }
    }
}
