import Foundation

/// The checkout the tests were built from: the folder of Package.swift, Rules/, Fixtures/ and
/// docs/ (found from this file's own path, three levels down).
public enum Checkout {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// A file or folder of the checkout, by its path from the root.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}
