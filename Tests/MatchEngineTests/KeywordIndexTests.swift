import XCTest
@testable import MatchEngine

final class KeywordIndexTests: XCTestCase {
    func found(_ index: KeywordIndex, _ text: [UInt8]) -> Set<String> {
        var out = Set<String>()
        var b = text
        b.withUnsafeMutableBytes { index.forEachHit(UnsafeRawBufferPointer($0)) { id, _ in out.insert(index.keywords[id]) } }
        return out
    }

    func testCaseInsensitiveAndOverlapping() {
        let index = KeywordIndex(keywords: ["sk-ant-api03", "ant", "akia", "he", "she", "hers"])
        XCTAssertEqual(found(index, Array("xx SK-ANT-API03-zz".utf8)), ["sk-ant-api03", "ant"])
        XCTAssertEqual(found(index, Array("ushers".utf8)), ["she", "he", "hers"])
        XCTAssertEqual(found(index, Array("nothing here".utf8)), ["he"])
        XCTAssertEqual(found(index, Array("AkIa".utf8)), ["akia"])
        XCTAssertEqual(found(index, []), [])
    }

    func testAgreesWithNaiveSearchOnRandomInput() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("abcAB-_xyz\u{0}".utf8) + [0xC3, 0xFF]
        for _ in 0..<200 {
            let keywords = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                String(decoding: (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                    .map { $0 >= 0x80 ? UInt8(ascii: "q") : ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) }, as: UTF8.self)
            }
            let text = (0..<Int.random(in: 0...300, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let index = KeywordIndex(keywords: keywords)
            let folded = text.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            var expected = Set<String>()
            for k in keywords {
                let kb = Array(k.utf8)
                if kb.count <= folded.count, (0...(folded.count - kb.count)).contains(where: { Array(folded[$0..<$0 + kb.count]) == kb }) {
                    expected.insert(k)
                }
            }
            XCTAssertEqual(found(index, text), expected, "keywords \(keywords)")
        }
    }

    /// Buffers of 1 KiB and more run four interleaved streams; keywords straddling the
    /// quarter boundaries and sitting at the very ends must still be found.
    func testLongBuffersAcrossStreamSplits() {
        var rng = SystemRandomNumberGenerator()
        let keywords = ["sk-ant-api03", "akia", "ghp_", "xoxb-", "-----begin"]
        let index = KeywordIndex(keywords: keywords)
        for _ in 0..<300 {
            let n = Int.random(in: 1024...6000, using: &rng)
            var text = (0..<n).map { _ in UInt8.random(in: 0x61...0x7A, using: &rng) }
            let k = keywords.randomElement(using: &rng)!
            let kb = Array(k.uppercased().utf8)
            let quarter = n / 4
            let spots = [0, n - kb.count, quarter - 2, 2 * quarter - 1, 3 * quarter - kb.count + 1, Int.random(in: 0...(n - kb.count), using: &rng)]
            let at = max(0, min(n - kb.count, spots.randomElement(using: &rng)!))
            text.replaceSubrange(at..<at + kb.count, with: kb)
            XCTAssertTrue(found(index, text).contains(k), "\(k) at \(at) of \(n)")
        }
    }

    /// Every occurrence is reported once, with its end offset, across the stream splits.
    func testEveryOccurrenceOnceWithItsEnd() {
        let index = KeywordIndex(keywords: ["abc", "bc"])
        var text = Array(repeating: UInt8(ascii: "x"), count: 4096)
        let spots = [0, 1019, 1023, 1027, 2046, 2049, 3069, 4093]
        for s in spots { text.replaceSubrange(s..<s + 3, with: Array("ABC".utf8)) }
        var hits: [String] = []
        text.withUnsafeBytes { index.forEachHit($0) { id, end in hits.append("\(index.keywords[id])@\(end)") } }
        let expected = spots.flatMap { ["abc@\($0 + 3)", "bc@\($0 + 3)"] }
        XCTAssertEqual(hits.sorted(), expected.sorted())
    }

    /// Every (keyword, end) pair a naive search finds, each as often, on random buffers short
    /// and long (the four-stream path), with keyword sets that share prefixes and suffixes,
    /// repeat a keyword or hold an empty one: the flat-table construction builds the same
    /// automaton the per-state arrays did.
    func testHitsEqualNaiveSearchExactly() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("abAB-_\u{0}".utf8) + [0xC3, 0xFF]
        for round in 0..<100 {
            var keywords = (0..<Int.random(in: 1...20, using: &rng)).map { _ in
                String(decoding: (0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                    .map { $0 >= 0x80 ? UInt8(ascii: "q") : KeywordIndex.fold($0) }, as: UTF8.self)
            }
            if round % 5 == 0 { keywords.append(keywords[0]) }
            if round % 7 == 0 { keywords.append("") }
            let n = round % 2 == 0 ? Int.random(in: 0...400, using: &rng) : Int.random(in: 1024...5000, using: &rng)
            let text = (0..<n).map { _ in alphabet.randomElement(using: &rng)! }
            let index = KeywordIndex(keywords: keywords)
            var hits: [String] = []
            text.withUnsafeBytes { index.forEachHit($0) { id, end in hits.append("\(id)@\(end)") } }
            let folded = text.map(KeywordIndex.fold)
            var expected: [String] = []
            for (id, k) in keywords.enumerated() where !k.isEmpty {
                let kb = Array(k.utf8)
                guard kb.count <= folded.count else { continue }
                for start in 0...(folded.count - kb.count) where folded[start..<start + kb.count].elementsEqual(kb) {
                    expected.append("\(id)@\(start + kb.count)")
                }
            }
            XCTAssertEqual(hits.sorted(), expected.sorted(), "keywords \(keywords), \(n) bytes")
        }
    }

    /// The builtin pack's own keywords (hundreds, many sharing prefixes) on text seeded with them.
    func testPackKeywordsEqualNaiveSearch() throws {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()
        let files = try names.map { try RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: $0, deferCompile: true) }
        let set = RuleSet.combining(files).0
        let keywords = set.keywordIndex.keywords
        XCTAssertGreaterThan(keywords.count, 200)
        var rng = SystemRandomNumberGenerator()
        // Keywords by first byte, so the naive search stays quick in a debug build.
        var byFirst = [[Int]](repeating: [], count: 256)
        for (id, k) in keywords.enumerated() { byFirst[Int(k.utf8.first!)].append(id) }
        let keywordBytes = keywords.map { Array($0.utf8) }
        for _ in 0..<6 {
            var text: [UInt8] = []
            while text.count < 6000 {
                if Bool.random(using: &rng) {
                    let k = Array(keywords.randomElement(using: &rng)!.utf8)
                    text += Bool.random(using: &rng) ? k : k.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                } else {
                    text += (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
                }
            }
            var hits: [String] = []
            text.withUnsafeBytes { set.keywordIndex.forEachHit($0) { id, end in hits.append("\(id)@\(end)") } }
            let folded = text.map(KeywordIndex.fold)
            var expected: [String] = []
            for start in folded.indices {
                for id in byFirst[Int(folded[start])] {
                    let kb = keywordBytes[id]
                    if start + kb.count <= folded.count && folded[start..<start + kb.count].elementsEqual(kb) {
                        expected.append("\(id)@\(start + kb.count)")
                    }
                }
            }
            XCTAssertEqual(hits.sorted(), expected.sorted())
        }
    }
}
