import CCrypto
import ScanCore

/// Computes `secretHash` and `fingerprint`.
///
/// `secretHash` is PBKDF2-HMAC-SHA256 of the value with a salt that includes an optional
/// project key (`[scan] hashKey` in the config, or `KEYSHAPE_HASH_KEY`): the same value
/// hashes the same everywhere in one project, yet confirming a guessed value costs
/// `iterations` HMACs per guess, and is impossible without the key when one is set.
/// Only 64 bits are kept: enough to group findings, too few to be a useful oracle.
public struct SecretHasher: Sendable {
    public static let defaultIterations = 10_000
    let salt: [UInt8]
    let iterations: Int32

    public init(key: String = "", iterations: Int = SecretHasher.defaultIterations) {
        salt = Array("keyshape/secret-hash/v1/".utf8) + Array(key.utf8)
        self.iterations = Int32(clamping: max(1, iterations))
    }

    public func secretHash(_ secret: UnsafeRawBufferPointer) -> String { secretHashes([secret])[0] }

    /// The hashes of several secrets, in order. On CPUs with SHA extensions up to four are
    /// computed side by side, about twice the throughput of one at a time, so callers that
    /// meet several new secrets at once hand them over together.
    /// - Parameter useExtensions: false forces the portable path (tests compare the two).
    public func secretHashes(_ secrets: [UnsafeRawBufferPointer], useExtensions: Bool = true) -> [String] {
        if secrets.isEmpty { return [] }
        let width = 8
        var out = [UInt8](repeating: 0, count: secrets.count * width)
        let passwords = secrets.map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
        let lengths = secrets.map(\.count)
        let ok = salt.withUnsafeBufferPointer { saltPtr in
            keyshape_pbkdf2_sha256_many(secrets.count, passwords, lengths, saltPtr.baseAddress, saltPtr.count,
                                        UInt32(iterations), &out, width, useExtensions ? 1 : 0)
        }
        precondition(ok == 1, "PBKDF2 refused its arguments")  // iterations >= 1 by construction
        return (0..<secrets.count).map { SecretHasher.hex(Array(out[$0 * width..<($0 + 1) * width])) }
    }

    /// THE fingerprint of a finding, whatever input found it: rule, the provenance's path
    /// chain and qualifier (`Provenance.fingerprintPlace`), the binary section when the
    /// bytes are an object file's, and the secret hash. Stable when lines move; the same
    /// for the same file's content under `scan`, `staged` and `history` (a file, a staged
    /// file and a blob at that path share the path, and their binary layouts the section),
    /// so a baseline written by one command applies to all.
    ///
    /// For a place whose provenance has a qualifier (an unreachable blob: its id; commit
    /// text: the field) the qualifier stands in the section slot, joined to the binary
    /// section by a NUL when both exist.
    public static func fingerprint(rule: String, location: Location, secretHash: String) -> String {
        let place = location.provenance.fingerprintPlace
        let section: String?
        switch (place.qualifier, location.section) {
        case (nil, let s): section = s
        case (let q?, nil): section = q
        case (let q?, let s?): section = q + "\u{0}" + s
        }
        return fingerprint(rule: rule, pathBytes: place.pathBytes, section: section, secretHash: secretHash)
    }

    /// Rule, path (or binary section) and secret hash: stable when lines move, different
    /// for the same key in two files so each place can be baselined on its own.
    public static func fingerprint(rule: String, path: String, section: String?, secretHash: String) -> String {
        fingerprint(rule: rule, pathBytes: Array(path.utf8), section: section, secretHash: secretHash)
    }

    /// The same from a path's raw bytes (a file name need not be UTF-8; for one that is,
    /// both forms give the same fingerprint).
    public static func fingerprint(rule: String, pathBytes: [UInt8], section: String?, secretHash: String) -> String {
        var input = Array("keyshape/fingerprint/v1\u{0}".utf8)
        input += Array(rule.utf8) + [0] + pathBytes + [0] + Array((section ?? "").utf8) + [0] + Array(secretHash.utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = input.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        return hex(Array(digest.prefix(8)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
