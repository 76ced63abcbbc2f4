import CCrypto
import XCTest
import TestSupport
@testable import ScanPipeline

/// keyshape computes PBKDF2 itself (two block transforms per round) for baseline checks and to
/// match release 0.2's baselines; it must give exactly what OpenSSL's reference PBKDF2 gives.
/// The secret hash is an HMAC under a key the report's reader lacks.
final class SecretHasherTests: XCTestCase {
    func reference(_ secret: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 8)
        let password = secret.map { CChar(bitPattern: $0) }
        let ok = PKCS5_PBKDF2_HMAC(password, Int32(password.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), 8, &out)
        XCTAssertEqual(ok, 1)
        return out
    }

    func testMatchesOpenSSLPBKDF2() {
        var rnd = SeededGenerator(seed: 5)
        // Empty, short, one block exactly, over one block (the key is hashed first), binary bytes.
        let lengths = [0, 1, 20, 40, 55, 56, 63, 64, 65, 100, 300]
        for length in lengths {
            let secret = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rnd) }
            for salt in ["", "project-key", String(repeating: "k", count: 90)].map({ Array($0.utf8) }) {
                for iterations in [1, 2, 3, 1000, 10_000] {
                    let got = secret.withUnsafeBytes { SecretHasher.pbkdf2([$0], salt: salt, iterations: iterations)[0] }
                    XCTAssertEqual(got, reference(secret, salt: salt, iterations: iterations), "length \(length), \(iterations) iterations")
                }
            }
        }
    }

    /// Several secrets at once (side by side on CPUs with SHA extensions, four lanes and a
    /// remainder) give what OpenSSL gives for each alone; so does the portable path.
    func testBatchesMatchOpenSSLPBKDF2() {
        var rnd = SeededGenerator(seed: 6)
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9] {
            let lengths = (0..<count).map { [0, 1, 20, 32, 40, 64, 65, 200][($0 * 5 + count) % 8] }
            let secrets = lengths.map { n in (0..<n).map { _ in UInt8.random(in: 0...255, using: &rnd) } }
            let salt = Array((count % 2 == 0 ? "" : "project-key").utf8)
            for iterations in [1, 2, 5, 10_000] {
                let want = secrets.map { reference($0, salt: salt, iterations: iterations) }
                for useExtensions in [true, false] {
                    let got = withBuffers(secrets) { SecretHasher.pbkdf2($0, salt: salt, iterations: iterations, useExtensions: useExtensions) }
                    XCTAssertEqual(got, want, "\(count) secrets, \(iterations) iterations, extensions \(useExtensions)")
                }
            }
        }
    }

    /// The secret hash is HMAC-SHA256 under the run's key: what OpenSSL's HMAC gives for the
    /// domain-prefixed value, 8 bytes; another key gives another hash; nobody without the key
    /// can recompute it (the key is not derived from anything in the binary).
    func testSecretHashIsAnHMACUnderTheRunsKey() {
        let key = SecretKeying(key: (0..<32).map { UInt8($0) }, source: .run)
        let secret = Array("Summer2024!".utf8)
        let got = secret.withUnsafeBytes { SecretHasher(keying: key).secretHash($0) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let message = Array("keyshape/secret-hash/v2\u{0}".utf8) + secret
        _ = HMAC(EVP_sha256(), key.key, Int32(key.key.count), message, message.count, &digest, &length)
        XCTAssertEqual(got, SecretHasher.hex(digest.prefix(8)))
        let other = secret.withUnsafeBytes { SecretHasher(keying: .process).secretHash($0) }
        XCTAssertNotEqual(got, other)
        // Two random run keys differ, and a user key gives the same hash on every run.
        XCTAssertNotEqual(SecretKeying.randomKey(), SecretKeying.randomKey())
        XCTAssertEqual(SecretKeying.user("team").key, SecretKeying.user("team").key)
        XCTAssertNotEqual(SecretKeying.user("team").key, SecretKeying.user("Team").key)
    }

    /// The memo agrees with the hasher for repeats within a call and secrets it already knows,
    /// and computes baseline tags only when a baseline is in use.
    func testMemoAgreesWithHasher() {
        var options = ScanOptions()
        options.secretKeying = SecretKeying.user("k")
        let memo = SecretHashMemo(options: options)
        let hasher = SecretHasher(keying: options.secretKeying)
        let a = Array("sk_live_first".utf8), b = Array("sk_live_second".utf8), c = Array("third".utf8)
        let first = withBuffers([a, b, a]) { memo.hashes($0) }
        let second = withBuffers([c, b, c, a]) { memo.hashes($0) }
        let single = [a, b, c].map { s in s.withUnsafeBytes { hasher.secretHash($0) } }
        XCTAssertEqual(first, [single[0], single[1], single[0]])
        XCTAssertEqual(second, [single[2], single[1], single[2], single[0]])
        XCTAssertEqual(Set(single).count, 3)
        XCTAssertFalse(memo.computesTags)
        options.baselineKey = SecretKeying.randomKey()
        let tagging = SecretHashMemo(options: options)
        let tags = withBuffers([a, b, a]) { tagging.tags($0) }
        XCTAssertNotNil(tags[0].baseline)
        XCTAssertEqual(tags[0], tags[2])
        XCTAssertNotEqual(tags[0], tags[1])
        XCTAssertNil(tags[0].legacy)
    }

    func withBuffers<R>(_ arrays: [[UInt8]], _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        let storage = arrays.map { bytes -> UnsafeMutableRawBufferPointer in
            let p = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            p.copyBytes(from: bytes)
            return p
        }
        defer { storage.forEach { $0.deallocate() } }
        return body(zip(storage, arrays).map { UnsafeRawBufferPointer(start: $0.0.baseAddress, count: $0.1.count) })
    }
}

