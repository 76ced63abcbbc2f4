import Foundation

/// Scheme, host and port: the unit the user confirms and redirects are compared by.
public struct Origin: Hashable, Codable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.init(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80))
    }

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    public static let anthropic = Origin(scheme: "https", host: "api.anthropic.com", port: 443)
    public static let openAI = Origin(scheme: "https", host: "api.openai.com", port: 443)

    /// Origins the library trusts without a confirmation: the providers' own API hosts.
    public static let wellKnown: Set<Origin> = [.anthropic, .openAI]

    /// Loopback by address, plus `localhost` (which resolvers map to loopback).
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var isSecure: Bool { scheme == "https" }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }
}
