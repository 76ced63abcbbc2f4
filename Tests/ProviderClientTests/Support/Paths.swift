import Foundation
import ProviderClient
import TestSupport

enum Repo {
    static let root = Checkout.root
    static func path(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The builtin rule pack from disk (not the executable's embedded copy).
    static let ruleFiles: [URL] = {
        let folder = path("Rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".toml") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    /// A redactor with the scanner's rules, loaded once.
    static let redactor: Redactor = {
        do { return try Redactor(ruleFiles: ruleFiles) } catch { fatalError("Rules/ failed to load: \(error)") }
    }()
}

/// Executables SwiftPM built next to this test bundle.
enum Binary {
    static func url(_ name: String) -> URL { BuiltProduct.url(name) ?? Repo.path(".build/debug/" + name) }
}

final class TemporaryFolder {
    let url: URL
    private let keep: Bool

    init(prefix: String = "provider-client", at existing: URL? = nil) {
        if let existing {
            url = existing
            keep = true
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
            keep = false
        }
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        if !keep { try? FileManager.default.removeItem(at: url) }
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func write(_ name: String, _ data: Data) throws {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
    }

    func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }
}
