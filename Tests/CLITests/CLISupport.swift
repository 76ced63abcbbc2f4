import Foundation
import TestSupport
import XCTest

enum Repo {
    static let root = Checkout.root
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// The keyshape executable SwiftPM built next to this test bundle.
enum Binary {
    static let url: URL = BuiltProduct.url("keyshape") ?? Repo.root.appendingPathComponent(".build/debug/keyshape")
}

/// A finished run (TestSupport's `runProcess`: no stdin, both streams, never a shell).
typealias Run = ProcessRun

/// This process's environment with a fixed `KEYSHAPE_HASH_KEY`: runs that must give the same
/// secret hashes (a report compared with another run's) take it; without a key every run
/// hashes with a random key of its own.
func keyedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["KEYSHAPE_HASH_KEY"] = "keyshape-tests"
    for (k, v) in extra { env[k] = v }
    return env
}

func keyshape(_ args: [String], cwd: String? = nil, env: [String: String]? = nil) -> Run {
    runProcess(Binary.url.path, args, cwd: cwd, env: env)
}

/// Fails when `text` holds `secret` or any 8-byte fragment of it.
func assertNoFragment(of secret: String, in text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    let bytes = Array(secret.utf8)
    guard bytes.count >= 8 else { return }
    for start in 0...(bytes.count - 8) {
        let fragment = String(decoding: bytes[start..<start + 8], as: UTF8.self)
        if text.contains(fragment) {
            XCTFail("\(what) contains an 8-byte fragment of a secret (at secret offset \(start))", file: file, line: line)
            return
        }
    }
}
