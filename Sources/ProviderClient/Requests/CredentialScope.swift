import CredentialStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The secrets of one request: the key and protected header values (or the proxy app
/// token), read from the store by `RequestBoundary` when the request is built. A scope is
/// a local value of the function that performs the request and dies with it; nothing
/// long-lived (client, transport, logger, singleton) ever stores one, so a key stored or
/// rotated after the client was created is what the next request reads.
///
/// While the request runs, the scope also scrubs the values (and any 8-character piece of
/// them, in any case) out of any text the response produces, before the rule-based
/// redaction runs; a provider that echoes the key in an error body is caught even when the
/// key has no known shape.
struct CredentialScope: Sendable {
    /// Header name, the bare value, and a scheme prefix (`Bearer `) written before it.
    private(set) var headers: [(name: String, value: Secret, prefix: String)] = []

    /// Values shorter than this occur in ordinary text by chance (a header flag `1`), so
    /// they are sent but not searched for; the same threshold the credential store uses.
    static let minimumSearchableLength = 8

    static let empty = CredentialScope()

    mutating func add(header name: String, value: Secret, prefix: String = "") {
        headers.append((name, value, prefix))
    }

    var headerNames: [String] { headers.map(\.name) }

    var isEmpty: Bool { headers.isEmpty }

    /// Whether any searchable value occurs in `text`.
    func occurs(in text: String) -> Bool {
        headers.contains { $0.value.characterCount >= Self.minimumSearchableLength && $0.value.occurs(in: text) }
    }

    /// `text` with every run of 8 or more characters of a searchable value, in any letter
    /// case, replaced by `<redacted>` (SecretRuns): a provider echoing the key without its
    /// prefix, upper-cased or in part is caught as well as one echoing it whole.
    func scrub(_ text: String) -> String {
        let values = headers.filter { $0.value.characterCount >= Self.minimumSearchableLength }
            .map { header in header.value.withRevealedValue { Array($0.utf8) } }
        return SecretRuns.scrub(text, secrets: values, minimumRun: Self.minimumSearchableLength, placeholder: Redactor.placeholder)
    }

    /// Writes the headers into the request: the only place values leave a `Secret`.
    func apply(to request: inout URLRequest) {
        for header in headers {
            header.value.withRevealedValue { request.setValue(header.prefix + $0, forHTTPHeaderField: header.name) }
        }
    }
}
