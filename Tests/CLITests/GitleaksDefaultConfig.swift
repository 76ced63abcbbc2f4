import Foundation
import XCTest
import TestSupport

/// gitleaks' own default config, carved at test time from an installed gitleaks binary (it
/// is embedded there as one contiguous text). Never kept in this repository: it is gitleaks'
/// work, used here only as an input that must load.
enum GitleaksDefaultConfig {
    /// The config's first line in every gitleaks 8 release.
    static let marker = Array("# This file has been auto-generated. Do not edit manually.".utf8)

    /// The carved text, or why there is none (the test then skips, saying so).
    static func carve() -> Result<String, Skip> {
        for candidate in candidates() {
            guard let data = FileManager.default.contents(atPath: candidate) else { continue }
            let bytes = [UInt8](data)
            // Scripts (a Python entry point named gitleaks) hold no config.
            if bytes.starts(with: Array("#!".utf8)) { continue }
            guard let found = data.range(of: Data(marker)) else { continue }
            let start = found.lowerBound - data.startIndex
            var end = start
            // To the first byte that is no text (Go's string data is followed by other data).
            while end < bytes.count {
                let b = bytes[end]
                if b == 0x09 || b == 0x0A || b == 0x0D || (b >= 0x20 && b != 0x7F) { end += 1 } else { break }
            }
            if let text = String(validating: bytes[start..<end], as: UTF8.self) { return .success(text) }
        }
        return .failure(Skip(reason: "no gitleaks 8 binary with its embedded default config found (looked at $KEYSHAPE_GITLEAKS_BINARY, `gitleaks` on PATH and Python packages' bin/gitleaks)"))
    }

    struct Skip: Error { var reason: String }

    static func candidates() -> [String] {
        var list: [String] = []
        let env = ProcessInfo.processInfo.environment
        if let explicit = env["KEYSHAPE_GITLEAKS_BINARY"] { list.append(explicit) }
        for dir in (env["PATH"] ?? "").split(separator: ":") { list.append(String(dir) + "/gitleaks") }
        // Wheels that ship the Go binary inside the package (the PATH entry is then a script).
        let python = runProcess("/usr/bin/env", ["python3", "-c", "import site; print('\\n'.join(site.getsitepackages()))"])
        if python.status == 0 {
            for dir in python.stdout.split(separator: "\n") {
                let packages = (try? FileManager.default.contentsOfDirectory(atPath: String(dir))) ?? []
                for p in packages.sorted() where p.lowercased().contains("gitleaks") {
                    list.append("\(dir)/\(p)/bin/gitleaks")
                }
            }
        }
        return list
    }
}
