import Foundation
import TestSupport
import XCTest

enum Repo {
    static let root = Checkout.root
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// The app-format files `Fixtures/app-formats/make-app-fixtures.py` writes, with a value
/// made at run time planted once in each.
struct AppFixtures {
    let folder: String
    let value: String

    /// A Stripe-shaped key of 70 characters: every format stores the length right before
    /// the string, and 70 is `F`, a letter, so the raw bytes read `Fsk_live_...` and a rule
    /// that wants no letter before the key cannot match them raw.
    static func makeValue() -> String { TestKeys.stripe(bodyLength: 62) }

    init(value: String = AppFixtures.makeValue()) throws {
        self.value = value
        folder = NSTemporaryDirectory() + "keyshape-appformats-\(UUID().uuidString)"
        let child = try runChild(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Repo.path("Fixtures/app-formats/make-app-fixtures.py"), folder, value])
        XCTAssertEqual(child.status, 0, child.stderrText)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}

extension Array where Element == UInt8 {
    /// The offset of the first occurrence of `needle`.
    func offset(of needle: [UInt8]) -> Int? {
        guard needle.count <= count else { return nil }
        for i in 0...(count - needle.count) where self[i] == needle[0] && Array(self[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}
