import Foundation

/// Which header carries the API key. There is deliberately no case that puts it anywhere
/// else (query, body, path): the URL and body checks refuse those even if a caller tries.
public enum AuthenticationScheme: Codable, Hashable, Sendable, CustomStringConvertible {
    /// `x-api-key: KEY` (Anthropic).
    case xAPIKey
    /// `Authorization: Bearer KEY` (OpenAI, compatible servers, Anthropic too).
    case bearer
    /// `NAME: KEY` for servers that want their own header (`api-key` on Azure).
    case header(String)
    /// No key; a custom endpoint may authenticate with protected headers only.
    case none

    /// The header the key goes into; nil for `.none`.
    public var headerName: String? {
        switch self {
        case .xAPIKey: return "x-api-key"
        case .bearer: return "Authorization"
        case .header(let name): return name
        case .none: return nil
        }
    }

    /// Written before the key in the header value.
    var headerPrefix: String {
        self == .bearer ? "Bearer " : ""
    }

    public var description: String {
        switch self {
        case .xAPIKey: return "x-api-key"
        case .bearer: return "bearer"
        case .header(let name): return "header:\(name)"
        case .none: return "none"
        }
    }

    /// Parses `x-api-key`, `bearer`, `none` or `header:NAME`; the spelling `description` writes.
    public init?(text: String) {
        switch text.lowercased() {
        case "x-api-key": self = .xAPIKey
        case "bearer": self = .bearer
        case "none": self = .none
        default:
            guard text.lowercased().hasPrefix("header:") else { return nil }
            let name = String(text.dropFirst("header:".count))
            guard HTTPHeaderName.isValid(name) else { return nil }
            self = .header(name)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let scheme = AuthenticationScheme(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown authentication scheme")
        }
        self = scheme
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Header-name syntax shared by every place that accepts a user-chosen name.
enum HTTPHeaderName {
    /// RFC 9110 token characters, bounded in length.
    static func isValid(_ name: String) -> Bool {
        guard (1...128).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
