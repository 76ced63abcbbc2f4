import CCrypto
import XCTest
@testable import ScanEngine

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

    func testKeyChangesTheHash() {
        let secret = Array("ghp_".utf8) + Array(repeating: UInt8(ascii: "A"), count: 36)
        let plain = secret.withUnsafeBytes { SecretHasher().secretHash($0) }
        let keyed = secret.withUnsafeBytes { SecretHasher(key: "team").secretHash($0) }
        XCTAssertEqual(plain.count, 16)
        XCTAssertNotEqual(plain, keyed)
    }
}
