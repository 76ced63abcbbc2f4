import CCrypto
import Foundation

/// The key behind `secretHash` (see `SecretHasher`): 32 bytes that a report's reader does not
/// have, so a hash in a report confirms no guessed value.
///
/// Where it comes from, first found wins:
/// 1. the user: `KEYSHAPE_HASH_KEY`, or `[scan] hashKey` in a `--config FILE` (never the scanned
///    tree's own config, which could name a key everyone knows), stretched once with PBKDF2, so
///    hashes agree across runs and machines that share it (parallel sweep jobs, CI and laptop);
/// 2. the datastore: a random key it created and keeps, never printed, so a datastore's
///    findings group by secret across its runs;
/// 3. this run: random, so hashes group the places of one value within one report only.
public struct SecretKeying: Sendable, Equatable {
    public enum Source: String, Sendable { case user, datastore, run }
    public let key: [UInt8]
    public let source: Source

    public init(key: [UInt8], source: Source) {
        self.key = key
        self.source = source
    }

    /// The user's key text, stretched (20,000 PBKDF2 rounds: about 5 ms once per run, and as
    /// much per guess for whoever tries keys against a hash).
    public static func user(_ text: String) -> SecretKeying {
        let stretched = text.utf8.withContiguousStorageIfAvailable { SecretKeying.stretch(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { SecretKeying.stretch($0) }
        return SecretKeying(key: stretched, source: .user)
    }

    private static func stretch(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        SecretHasher.pbkdf2([text], salt: Array("keyshape/hash-key/v2".utf8), iterations: 20_000, width: 32)[0]
    }

    /// 32 random bytes from the system's generator.
    public static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) }
    }

    /// One random key per process: every scanner of a run without a user or datastore key
    /// shares it, so their hashes agree.
    public static let process = SecretKeying(key: randomKey(), source: .run)

    /// Names the key without revealing it (for the rules identity of history's blob cache:
    /// hashes recorded under another key must not be read back).
    public var id: String {
        SecretHasher.hex(Array("keyshape/key-id/v2".utf8).withUnsafeBytes { SecretHasher.hmac(key: key, [], $0) }.prefix(8))
    }
}
