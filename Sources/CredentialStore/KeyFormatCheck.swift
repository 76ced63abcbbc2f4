/// Catches an obviously wrong paste before any request is sent. Only
/// providers whose key format is documented and stable are checked;
/// everything else passes as `.notChecked` rather than risk rejecting a
/// valid key.
public enum KeyFormatCheck {
    public enum Verdict: Equatable, Sendable {
        case plausible
        case notChecked
        case rejected(Problem)
    }

    /// Reasons describe the shape, never the value.
    public enum Problem: String, Equatable, Sendable, CustomStringConvertible {
        case empty = "the key is empty"
        case containsWhitespace = "the key contains whitespace or line breaks"
        case wrongPrefix = "the key does not start with the provider's prefix"
        case tooShort = "the key is shorter than the provider's keys"
        case belongsToAnotherProvider = "the key looks like another provider's key"

        public var description: String { rawValue }
    }

    public static let anthropicPrefix = "sk-ant-"
    public static let anthropicMinimumLength = 40
    public static let openAIPrefix = "sk-"
    public static let openAIMinimumLength = 40

    public static func check(_ key: Secret, for provider: ProviderKind) -> Verdict {
        key.withRevealedValue { value in
            if value.isEmpty { return .rejected(.empty) }
            switch provider {
            case .anthropic:
                if value.contains(where: \.isWhitespace) { return .rejected(.containsWhitespace) }
                guard value.hasPrefix(anthropicPrefix) else { return .rejected(.wrongPrefix) }
                guard value.count >= anthropicMinimumLength else { return .rejected(.tooShort) }
                return .plausible
            case .openAI:
                if value.contains(where: \.isWhitespace) { return .rejected(.containsWhitespace) }
                // Anthropic keys also start with `sk-`; this paste mistake is common and certain.
                if value.hasPrefix(anthropicPrefix) { return .rejected(.belongsToAnotherProvider) }
                guard value.hasPrefix(openAIPrefix) else { return .rejected(.wrongPrefix) }
                guard value.count >= openAIMinimumLength else { return .rejected(.tooShort) }
                return .plausible
            default:
                return .notChecked
            }
        }
    }
}
