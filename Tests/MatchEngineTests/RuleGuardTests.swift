import Foundation
import XCTest
@testable import MatchEngine

/// Some generic rules open with a lookahead that only repeats, cheaply, what the rest of the
/// pattern needs anyway (the name's bytes up to the syntax's own separator), so most start
/// positions are rejected by one scan instead of forty tries of the credential stems. Such a
/// guard must change no match: here each guarded pattern of the pack, and the same pattern
/// without its guard, run over the rule's examples and negative examples, thousands of
/// deterministic mutations of them and hand-written near misses, and must find the same
/// matches with the same groups.
final class RuleGuardTests: XCTestCase {
    /// Rule id and its guard, exactly as the pack writes it.
    static let guards: [(id: String, guard: String)] = [
        ("generic-c-array-credential", #"(?=[\w.\-]{0,78}+\[)"#),
        ("generic-makefile-credential", #"(?=(?:(?:export|override)[ \t]+)?[\w.\-]{0,78}+[ \t]*[:?+])"#),
        ("generic-env-credential", #"(?=[A-Za-z0-9_.\-]{1,120}+[ \t]*=)"#),
        ("generic-yaml-credential", #"(?=[\w.\-]{1,120}+[ \t]*:[ \t])"#),
    ]

    func testGuardedPatternsMatchWhatTheyMatchWithoutTheirGuard() throws {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }
        let rules = try names.flatMap { name -> [Rule] in
            try RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8), file: "Rules/" + name).rules
        }
        for (id, guardText) in RuleGuardTests.guards {
            let rule = try XCTUnwrap(rules.first { $0.id == id }, id)
            let pattern = rule.regex.pattern
            XCTAssertEqual(pattern.components(separatedBy: guardText).count, 2, "\(id) holds its guard once")
            let guarded = try Regex(pattern)
            let plain = try Regex(pattern.replacingOccurrences(of: guardText, with: ""))
            var texts = (rule.examples + rule.negativeExamples).map { $0.replacingOccurrences(of: "«", with: "").replacingOccurrences(of: "»", with: "") }
            var generator = SplitMix(seed: 0x5EED)
            for text in texts { texts += (0..<400).map { _ in RuleGuardTests.mutate(text, &generator) } }
            texts += RuleGuardTests.nearMisses
            var matched = 0
            for text in texts {
                let a = RuleGuardTests.allMatches(guarded, text), b = RuleGuardTests.allMatches(plain, text)
                XCTAssertEqual(a, b, "\(id) on \(text.debugDescription)")
                matched += a.count
            }
            // The corpus exercises the patterns: mutations keep many of the examples matching.
            XCTAssertGreaterThan(matched, 100, id)
        }
    }

    /// Names at the guards' bounds (up to 40 bytes before the stem, 24 after it, the longest
    /// stems), indentation, `export`, and values built from pieces (no key-shaped literal here).
    static let nearMisses: [String] = {
        let value = String(repeating: "q7W" + "x2K", count: 4)
        var names: [String] = []
        for before in [0, 1, 39, 40, 41, 60, 100] {
            for stem in ["token", "Encryption.Key", "passphrase"] {
                for after in [0, 1, 23, 24, 25, 50] {
                    let head = before == 0 ? "" : String(repeating: "a", count: before - 1) + "_"
                    let tail = after == 0 ? "" : "-" + String(repeating: "b", count: after - 1)
                    names.append(head + stem + tail)
                }
            }
        }
        return names.flatMap { name in
            ["char \(name)[64] = \"\(value)\";", "\(name) := \(value)", "  export \(name) ?= \(value)",
             "\(name)=\(value)", "export \(name) = \(value)", "  - \(name): \(value)", "\(name):\t\(value)",
             "override \(name) += \(value) # note", "x.\(name)[1]=\"\(value)\"", "\t\(name) \t= \(value)\r"]
        }
    }()

    static func allMatches(_ regex: Regex, _ text: String) -> [[Range<Int>?]] {
        let scratch = MatchScratch(maxCaptures: regex.captureCount)
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw in
            let buffer = UnsafeRawBufferPointer(raw)
            var found: [[Range<Int>?]] = []
            var start = 0
            while start <= buffer.count, case .match(let groups) = regex.firstMatch(in: buffer, from: start, scratch: scratch),
                  let whole = groups[0] {
                found.append(groups)
                start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
            }
            return found
        }
    }

    /// One to four edits: a byte deleted, a syntax byte inserted, a prefix repeated.
    static func mutate(_ text: String, _ g: inout SplitMix) -> String {
        var b = Array(text.utf8)
        let inserts = Array(" \t[]=:?+-_.\"'aZ09k\n#".utf8)
        for _ in 0..<(1 + Int(g.next() % 4)) {
            let p = Int(g.next() % UInt64(b.count + 1))
            switch g.next() % 5 {
            case 0, 1: if !b.isEmpty { b.remove(at: min(p, b.count - 1)) }
            case 2, 3: b.insert(inserts[Int(g.next() % UInt64(inserts.count))], at: p)
            default: b.insert(contentsOf: b[0..<Int(g.next() % UInt64(b.count + 1))], at: p)
            }
        }
        return String(decoding: b, as: UTF8.self)
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
