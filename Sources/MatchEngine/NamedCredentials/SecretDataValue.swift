import Foundation
import ScanCore

/// What a Kubernetes Secret's value holds, judged by what it decodes to: a password (`hunter2`),
/// a `user:password` pair or a URL with userinfo (the password judged), a Docker config
/// (`.dockercfg`, `.dockerconfigjson`: JSON whose `auth`, `password` and token fields are the
/// credentials), a private key in PEM, or random bytes (a key). Confidence as the value scorer
/// gives it for the credential found (low for a weak password), nil for none (a placeholder,
/// `admin:password`, a certificate, a configuration file).
struct SecretDataValue {
    let names: CredentialNameScorer
    /// The entry's name when it names a credential (`db-password`), else a key's.
    let name: CredentialName

    static let password = CredentialName(kind: .password, strong: true, provider: nil)
    /// How deep a decoded JSON document is walked, and how long it may be.
    static let maximumDepth = 6
    static let maximumDocument = 4096

    /// `bytes` decoded from `encoded` (the base64 as written).
    func decoded(_ bytes: [UInt8], encoded: UnsafeBufferPointer<UInt8>, certificate: Bool) -> Confidence? {
        var d = bytes
        // `echo secret | base64` keeps the newline.
        if d.last == 0x0A { d.removeLast(); if d.last == 0x0D { d.removeLast() } }
        if d.isEmpty { return nil }
        if d.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return text(d) }
        // Random bytes (an encryption or signing key) are a key, but a certificate in DER is public.
        if certificate { return nil }
        return CredentialValueScorer.confidence(encoded, name: name, form: .slot)
    }

    /// A value as text: JSON, several lines, a URL, a `user:password` pair or one value.
    func text(_ d: [UInt8], depth: Int = 0) -> Confidence? {
        guard let first = d.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
        if d[first] == UInt8(ascii: "{") { return json(d, depth: depth) }
        if d.contains(0x0A) { return SecretDataValue.holdsPrivateKey(d) ? .medium : nil }
        let whole = d.withUnsafeBufferPointer { CredentialValueScorer.confidence($0, name: name, form: .slot) }
        if let whole { return whole }
        if let password = SecretDataValue.userinfoPassword(d) ?? SecretDataValue.pairPassword(d) {
            return password.withUnsafeBufferPointer { CredentialValueScorer.confidence($0, name: SecretDataValue.password, form: .slot) }
        }
        return nil
    }

    /// The most confident credential in a JSON document's string fields: Docker's `auth`
    /// (base64 of `user:password`, or the password as written), and any field whose name names
    /// a credential (`password`, `identitytoken`, `private_key`).
    private func json(_ d: [UInt8], depth: Int) -> Confidence? {
        guard depth == 0, d.count <= SecretDataValue.maximumDocument,
              let object = try? JSONSerialization.jsonObject(with: Data(d)) else { return nil }
        return walk(object, depth: 0)
    }

    private func walk(_ object: Any, depth: Int) -> Confidence? {
        guard depth < SecretDataValue.maximumDepth else { return nil }
        var best: Confidence?
        func keep(_ c: Confidence?) { if let c, best.map({ c > $0 }) ?? true { best = c } }
        if let array = object as? [Any] {
            for item in array { keep(walk(item, depth: depth + 1)) }
        } else if let dict = object as? [String: Any] {
            for (key, value) in dict {
                guard let string = value as? String else { keep(walk(value, depth: depth + 1)); continue }
                let bytes = Array(string.utf8)
                if key.lowercased() == "auth" {
                    keep(dockerAuth(bytes))
                } else if let fieldName = Array(key.utf8).withUnsafeBufferPointer({ names.score($0) }) {
                    keep(SecretDataValue(names: names, name: fieldName).text(bytes, depth: 1))
                }
            }
        }
        return best
    }

    /// Docker's `auth`: base64 of `user:password`, whose password is judged; a value that is no
    /// such pair is the password as written.
    private func dockerAuth(_ bytes: [UInt8]) -> Confidence? {
        if let data = Data(base64Encoded: Data(bytes)), let password = SecretDataValue.pairPassword([UInt8](data)) {
            return password.withUnsafeBufferPointer { CredentialValueScorer.confidence($0, name: SecretDataValue.password, form: .slot) }
        }
        return bytes.withUnsafeBufferPointer { CredentialValueScorer.confidence($0, name: SecretDataValue.password, form: .slot) }
    }

    /// `user:password` (a user name of name characters, then the password): the password, nil
    /// for none or the user's name again (`admin:admin`).
    static func pairPassword(_ d: [UInt8]) -> [UInt8]? {
        guard let colon = d.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < 64, colon + 1 < d.count,
              d[..<colon].allSatisfy({ NamedCredentialReader.isNameByte($0) || $0 == UInt8(ascii: "@") }) else { return nil }
        let password = Array(d[(colon + 1)...])
        return password.elementsEqual(d[..<colon]) ? nil : password
    }

    /// `scheme://user:password@host…`: the password (up to the last `@` before the path).
    static func userinfoPassword(_ d: [UInt8]) -> [UInt8]? {
        guard let scheme = (0..<max(0, d.count - 2)).first(where: { d[$0] == UInt8(ascii: ":") && d[$0 + 1] == UInt8(ascii: "/") && d[$0 + 2] == UInt8(ascii: "/") }) else { return nil }
        let start = scheme + 3
        let end = d[start...].firstIndex(of: UInt8(ascii: "/")) ?? d.count
        guard let at = d[start..<end].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return pairPassword(Array(d[start..<at]))
    }

    static func holdsPrivateKey(_ d: [UInt8]) -> Bool {
        CredentialValueScorer.find(d, "-----BEGIN") && CredentialValueScorer.find(d, "PRIVATE KEY-----")
    }

    /// An entry named for a certificate (`ca.crt`, `tls.cert`, `ca-bundle.pem`, `public.der`):
    /// its bytes are public.
    static func namesCertificate(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowered = key.map(CredentialValueScorer.lower)
        return ["crt", "cert", "ca.", "ca-", "bundle", "pub", "chain"].contains { CredentialValueScorer.find(lowered, $0) }
    }
}
