import CCrypto
import XCTest
@testable import ScanPipeline

/// keyshape computes PBKDF2 itself (two block transforms per round); it must give exactly
/// what OpenSSL's reference PBKDF2 gives, or secret hashes and every fingerprint in
/// existing baselines would change.
final class SecretHasherTests: XCTestCase {
    func reference(_ secret: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 8)
        let password = secret.map { CChar(bitPattern: $0) }
        let ok = PKCS5_PBKDF2_HMAC(password, Int32(password.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), 8, &out)
        XCTAssertEqual(ok, 1)
        return out
    }

    func testMatchesOpenSSLPBKDF2() {
        var rnd = SystemRandomNumberGenerator()
        // Empty, short, one block exactly, over one block (the key is hashed first), binary bytes.
        let lengths = [0, 1, 20, 40, 55, 56, 63, 64, 65, 100, 300]
        for length in lengths {
            let secret = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rnd) }
            for key in ["", "project-key", String(repeating: "k", count: 90)] {
                for iterations in [1, 2, 3, 1000, SecretHasher.defaultIterations] {
                    let hasher = SecretHasher(key: key, iterations: iterations)
                    let got = secret.withUnsafeBytes { hasher.secretHash($0) }
                    let want = SecretHasher.hex(reference(secret, salt: hasher.salt, iterations: iterations))
                    XCTAssertEqual(got, want, "length \(length), key length \(key.count), \(iterations) iterations")
                }
            }
        }
    }

    /// Several secrets at once (side by side on CPUs with SHA extensions, four lanes and a
    /// remainder) give what OpenSSL gives for each alone; so does the portable path.
    func testBatchesMatchOpenSSLPBKDF2() {
        var rnd = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9] {
            let lengths = (0..<count).map { [0, 1, 20, 32, 40, 64, 65, 200][($0 * 5 + count) % 8] }
            let secrets = lengths.map { n in (0..<n).map { _ in UInt8.random(in: 0...255, using: &rnd) } }
            for iterations in [1, 2, 5, SecretHasher.defaultIterations] {
                let hasher = SecretHasher(key: count % 2 == 0 ? "" : "project-key", iterations: iterations)
                let want = secrets.map { SecretHasher.hex(reference($0, salt: hasher.salt, iterations: iterations)) }
                for useExtensions in [true, false] {
                    let got = withBuffers(secrets) { hasher.secretHashes($0, useExtensions: useExtensions) }
                    XCTAssertEqual(got, want, "\(count) secrets, \(iterations) iterations, extensions \(useExtensions)")
                }
            }
        }
    }

    /// The memo hashes each new distinct secret once per call and agrees with the hasher,
    /// for repeats within a call and secrets it already knows.
    func testMemoBatchesAgreeWithHasher() {
        let memo = SecretHashMemo(key: "k")
        let hasher = SecretHasher(key: "k")
        let a = Array("sk_live_first".utf8), b = Array("sk_live_second".utf8), c = Array("third".utf8)
        let first = withBuffers([a, b, a]) { memo.hashes($0) }
        let second = withBuffers([c, b, c, a]) { memo.hashes($0) }
        let single = [a, b, c].map { s in s.withUnsafeBytes { hasher.secretHash($0) } }
        XCTAssertEqual(first, [single[0], single[1], single[0]])
        XCTAssertEqual(second, [single[2], single[1], single[2], single[0]])
        XCTAssertEqual(Set(single).count, 3)
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

    func testKeyChangesTheHash() {
        let secret = Array("ghp_".utf8) + Array(repeating: UInt8(ascii: "A"), count: 36)
        let plain = secret.withUnsafeBytes { SecretHasher().secretHash($0) }
        let keyed = secret.withUnsafeBytes { SecretHasher(key: "team").secretHash($0) }
        XCTAssertEqual(plain.count, 16)
        XCTAssertNotEqual(plain, keyed)
    }
}
