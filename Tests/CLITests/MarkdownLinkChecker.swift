import Foundation

/// The relative links of Markdown files, checked the way GitHub renders them: `[text](path)`
/// must name a file or folder that exists, and `[text](path#anchor)` (or `(#anchor)`) a heading
/// of the target Markdown file, by GitHub's slug of it. Links with a scheme (`https://`,
/// `mailto:`) are not followed; code (fenced blocks and inline spans) holds no links, since
/// regexes and shell snippets are full of `](`.
struct MarkdownLinkChecker {
    let root: URL

    /// One broken link: the file it is in (relative to root), its line and target, and why.
    struct Problem: CustomStringConvertible, Equatable {
        var file: String
        var line: Int
        var target: String
        var reason: String
        var description: String { "\(file):\(line): (\(target)): \(reason)" }
    }

    static let link = try! NSRegularExpression(pattern: #"\]\(([^()\s]+)(?:\s+"[^"]*")?\)"#)

    /// GitHub's anchor for a heading: lowercased, everything but letters, digits, marks,
    /// connector punctuation (`_`), spaces and hyphens dropped, spaces made hyphens.
    static func slug(_ heading: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in heading.lowercased().unicodeScalars {
            let p = scalar.properties
            if scalar == " " { out.append("-") } else if scalar == "-" || p.isAlphabetic || p.numericType != nil
                        || p.generalCategory == .connectorPunctuation || p.generalCategory == .nonspacingMark {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The lines of a Markdown text outside fenced code blocks, with their 1-based numbers.
    static func proseLines(_ text: String) -> [(number: Int, text: String)] {
        var out: [(Int, String)] = []
        var fence = false
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fence.toggle(); continue }
            if !fence { out.append((i + 1, String(line))) }
        }
        return out
    }

    /// The anchors of a Markdown text's headings; a repeated heading gets `-1`, `-2`, … as on GitHub.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var out: Set<String> = []
        for (_, line) in proseLines(text) where line.hasPrefix("#") {
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes <= 6, line.dropFirst(hashes).first == " " else { continue }
            let title = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
            let base = slug(title)
            let n = seen[base, default: 0]
            seen[base] = n + 1
            out.insert(n == 0 ? base : "\(base)-\(n)")
        }
        return out
    }

    /// A line with its inline code spans (a run of backticks to the next run of the same length) removed.
    static func withoutCode(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "`") {
            out += rest[..<open]
            let ticks = rest[open...].prefix { $0 == "`" }
            let after = rest[ticks.endIndex...]
            guard let close = after.range(of: String(ticks)) else { return out + rest[open...] }
            rest = after[close.upperBound...]
        }
        return out + rest
    }

    /// Every broken relative link in `files` (paths relative to root).
    func problems(in files: [String]) throws -> [Problem] {
        var problems: [Problem] = []
        var anchorCache: [String: Set<String>] = [:]
        func anchors(of path: String) throws -> Set<String> {
            if let known = anchorCache[path] { return known }
            let found = Self.anchors(try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
            anchorCache[path] = found
            return found
        }
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let folder = (file as NSString).deletingLastPathComponent
            for (number, raw) in Self.proseLines(text) {
                let line = Self.withoutCode(raw)
                let ns = line as NSString
                for match in Self.link.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                    let target = ns.substring(with: match.range(at: 1))
                    if target.contains("://") || target.hasPrefix("mailto:") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                    let pathPart = parts[0].removingPercentEncoding ?? parts[0]
                    let resolved = pathPart.isEmpty ? file : ((folder as NSString).appendingPathComponent(pathPart) as NSString).standardizingPath
                    var isFolder: ObjCBool = false
                    guard !resolved.hasPrefix(".."), FileManager.default.fileExists(atPath: root.appendingPathComponent(resolved).path, isDirectory: &isFolder) else {
                        problems.append(Problem(file: file, line: number, target: target, reason: "no such file"))
                        continue
                    }
                    guard parts.count == 2, resolved.hasSuffix(".md"), !isFolder.boolValue else { continue }
                    if !(try anchors(of: resolved)).contains(parts[1]) {
                        problems.append(Problem(file: file, line: number, target: target, reason: "\(resolved) has no heading with anchor #\(parts[1])"))
                    }
                }
            }
        }
        return problems
    }
}
