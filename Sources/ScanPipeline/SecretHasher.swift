import CCrypto
import ScanCore

/// Computes `secretHash` and `fingerprint`.
///
/// The rule (contract, third release): no field of any output lets a reader who lacks the
/// scanned content confirm a guessed value offline. So:
///
/// - `secretHash` is HMAC-SHA256 of the value under a key the report's reader does not have
///   (`SecretKeying`: the user's `KEYSHAPE_HASH_KEY` / `--config` `hashKey`, else the
///   datastore's own key, else a random key of this run), 64 bits kept. The same value has
///   the same hash everywhere in one run (an auditor groups the places of one key), and
///   across runs under the user's or the datastore's key. Release 0.2's was PBKDF2 with a
///   salt written in the binary: a reader of any report confirmed `Summer2024!` on two cores.
/// - `fingerprint` holds no value at all: rule, place (path chain, binary section or the
///   qualifier of a place without a path) and the value's ordinal among the distinct values
///   that rule found at that place (`FingerprintOrdinals`). Stable across runs and machines
///   with no key, and when lines move; the same for the same file under `scan`, `staged`
///   and `history`.
/// - A baseline (`--write-baseline`) keys its own check of each value (`baselineTag`) with a
///   random key kept in the baseline file and never printed, so a baseline written on a
///   laptop matches in CI, and a baselined fake key replaced by a real one at the same place
///   is reported.
public struct SecretHasher: Sendable {
    public let keying: SecretKeying

    public init(keying: SecretKeying) { self.keying = keying }

    public func secretHash(_ secret: UnsafeRawBufferPointer) -> String { secretHashes([secret])[0] }

    /// HMAC-SHA256 under the run's key, 64 bits, in hex.
    public func secretHashes(_ secrets: [UnsafeRawBufferPointer]) -> [String] {
        secrets.map { SecretHasher.hex(SecretHasher.hmac(key: keying.key, Array(SecretHasher.hashDomain), $0).prefix(8)) }
    }

    static let hashDomain = "keyshape/secret-hash/v2\u{0}".utf8

    /// HMAC-SHA256(key, prefix || message).
    static func hmac(key: [UInt8], _ prefix: [UInt8], _ message: UnsafeRawBufferPointer) -> [UInt8] {
        var input = prefix
        input.append(contentsOf: message)
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = key.withUnsafeBufferPointer { k in
            input.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &digest, &length)
            }
        }
        return digest
    }

    /// PBKDF2-HMAC-SHA256 of each secret with `salt`, `width` bytes each.
    /// - Parameter useExtensions: false forces the portable path (tests compare the two).
    static func pbkdf2(_ secrets: [UnsafeRawBufferPointer], salt: [UInt8], iterations: Int, width: Int = 8,
                       useExtensions: Bool = true) -> [[UInt8]] {
        if secrets.isEmpty { return [] }
        var out = [UInt8](repeating: 0, count: secrets.count * width)
        let passwords = secrets.map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
        let lengths = secrets.map(\.count)
        let ok = salt.withUnsafeBufferPointer { saltPtr in
            keyshape_pbkdf2_sha256_many(secrets.count, passwords, lengths, saltPtr.baseAddress, saltPtr.count,
                                        UInt32(max(1, iterations)), &out, width, useExtensions ? 1 : 0)
        }
        precondition(ok == 1, "PBKDF2 refused its arguments")  // iterations >= 1 by construction
        return (0..<secrets.count).map { Array(out[$0 * width..<($0 + 1) * width]) }
    }

    // MARK: Fingerprints

    /// THE fingerprint of a finding, whatever input found it: rule, the provenance's path
    /// chain and qualifier (`Provenance.fingerprintPlace`), the binary section when the
    /// bytes are an object file's, and the value's ordinal at that place (0 for the first
    /// distinct value the rule found there). No value goes in.
    ///
    /// Under a key that outlives the run (the user's or the datastore's), the value's keyed
    /// secret hash stands in for the ordinal: each value at a place then has a fingerprint of
    /// its own across commits too (a datastore triages one value, not every value ever first at
    /// that path), and no reader without the key can test a guess against it.
    public static func fingerprint(rule: String, location: Location, ordinal: Int, keyedHash: String? = nil) -> String {
        let place = location.provenance.fingerprintPlace
        return fingerprint(rule: rule, pathBytes: place.pathBytes, section: section(place.qualifier, location.section), ordinal: ordinal,
                           keyedHash: keyedHash)
    }

    public static func fingerprint(rule: String, pathBytes: [UInt8], section: String?, ordinal: Int, keyedHash: String? = nil) -> String {
        var input = Array("keyshape/fingerprint/v2\u{0}".utf8)
        input += Array(rule.utf8) + [0] + pathBytes + [0] + Array((section ?? "").utf8) + [0]
        input += Array((keyedHash.map { "h:" + $0 } ?? String(ordinal)).utf8)
        return hex(sha256(input).prefix(8))
    }

    /// The qualifier stands in the section slot, joined to the binary section by a NUL when
    /// both exist (as release 0.2 did).
    static func section(_ qualifier: String?, _ binarySection: String?) -> String? {
        switch (qualifier, binarySection) {
        case (nil, let s): return s
        case (let q?, nil): return q
        case (let q?, let s?): return q + "\u{0}" + s
        }
    }

    // MARK: Baselines

    /// A baseline's check of one value: PBKDF2 under the baseline's key (deliberately slow:
    /// whoever holds the baseline file holds its key), 64 bits.
    public static func baselineTags(_ secrets: [UnsafeRawBufferPointer], key: [UInt8]) -> [UInt64] {
        pbkdf2(secrets, salt: Array("keyshape/baseline/v2\u{0}".utf8) + key, iterations: 10_000).map(number)
    }

    /// What a v2 baseline lists for a finding: the value's tag with rule and place (not the
    /// ordinal, so reordering the values at one place keeps them baselined).
    public static func baselineCheck(tag: UInt64, rule: String, location: Location) -> String {
        let place = location.provenance.fingerprintPlace
        var input = Array("keyshape/baseline-check/v2\u{0}".utf8)
        withUnsafeBytes(of: tag.bigEndian) { input += $0 }
        input += Array(rule.utf8) + [0] + place.pathBytes + [0] + Array((section(place.qualifier, location.section) ?? "").utf8)
        return hex(sha256(input).prefix(8))
    }

    // MARK: Release 0.2's form, read only to match its baselines

    /// 0.2's secretHash (PBKDF2, the salt written in the binary plus the project key): computed
    /// only when a baseline of that form is loaded, to match its fingerprints; never printed.
    public static func legacySecretHashes(_ secrets: [UnsafeRawBufferPointer], key: String) -> [UInt64] {
        pbkdf2(secrets, salt: Array("keyshape/secret-hash/v1/".utf8) + Array(key.utf8), iterations: 10_000).map(number)
    }

    /// 0.2's fingerprint: rule, place, section and its secretHash.
    public static func legacyFingerprint(rule: String, location: Location, legacyHash: UInt64) -> String {
        let place = location.provenance.fingerprintPlace
        var input = Array("keyshape/fingerprint/v1\u{0}".utf8)
        input += Array(rule.utf8) + [0] + place.pathBytes + [0] + Array((section(place.qualifier, location.section) ?? "").utf8) + [0]
        input += Array(hex(withUnsafeBytes(of: legacyHash.bigEndian, Array.init)).utf8)
        return hex(sha256(input).prefix(8))
    }

    // MARK: Helpers

    static func sha256(_ input: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = input.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        return digest
    }

    static func number(_ bytes: [UInt8]) -> UInt64 { bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }

    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
