import XCTest
@testable import MatchEngine

/// The named-credential pass's cheap paths (`CredentialNameMemo`, the stem look-up in
/// `NamedCredentialReader.mayHoldStem`) answer exactly as the slow ones, and the memo spares the
/// scorer the names it has read: counted, not timed. Values are built from pieces at run time.
final class CredentialNameMemoTests: XCTestCase {
    let pass = NamedCredentialPass(providers: ["MapQuest", "New Relic", "SendGrid"])
    let random1 = "Rk7Tz2" + "Vq9LmX4pWc8Hs3"

    /// Names of every shape the scorer tells apart, and enough of them (with the same names
    /// again, in other cases) that many share a slot of the memo.
    private func names() -> [String] {
        let words = ["api", "key", "token", "secret", "password", "pass", "pw", "auth", "mapquest", "new", "relic", "sendgrid",
                     "client", "sort", "cache", "public", "value", "b64", "id", "type", "x", "db", "smtp", "access", "private", "k9"]
        let joins = ["_", "-", ".", ""]
        var out: [String] = []
        var state: UInt64 = 11
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: (state >> 33) % UInt64(n))
        }
        for _ in 0..<20_000 {
            var name = ""
            for w in 0..<(1 + next(4)) {
                var word = words[next(words.count)]
                switch next(3) {
                case 0: word = word.uppercased()
                case 1: word = word.prefix(1).uppercased() + word.dropFirst()
                default: break
                }
                name += (w == 0 ? "" : joins[next(joins.count)]) + word
            }
            out.append(name)
        }
        // Longer than the memo keeps: scored each time, the same answer.
        out.append("the_mapquest_api_key_of_the_staging_environment_for_tests")
        return out
    }

    private func score(_ scorer: CredentialNameScorer, _ name: String, memo: CredentialNameMemo?) -> CredentialName? {
        var bytes = Array(name.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            let name = UnsafeBufferPointer(b)
            return memo.map { $0.score(name, by: scorer) } ?? scorer.score(name)
        }
    }

    func testTheMemoAnswersAsTheScorer() {
        let scorer = CredentialNameScorer(providers: pass.providers)
        let memo = CredentialNameMemo()
        let all = names()
        var credentials = 0
        for round in 0..<2 {
            for name in all {
                let expected = score(scorer, name, memo: nil)
                XCTAssertEqual(score(scorer, name, memo: memo), expected, "\(name), round \(round)")
                if expected != nil { credentials += 1 }
            }
        }
        // The names are of both kinds, so the comparison says something.
        XCTAssertGreaterThan(credentials, 1_000)
        XCTAssertLessThan(credentials, 2 * all.count - 1_000)
    }

    func testThePassScoresEachNameOnceAcrossBuffers() {
        let line = "token = self.token\nsort_key = cache_key\nmapquest_key = \"\(random1)\"\n"
        var bytes = Array(String(repeating: line, count: 500).utf8)
        let memo = CredentialNameMemo()
        var withMemo: [NamedCredentialPass.Found] = []
        var without: [NamedCredentialPass.Found] = []
        bytes.withUnsafeMutableBytes { raw in
            let buffer = UnsafeRawBufferPointer(raw)
            for _ in 0..<3 { withMemo.removeAll(); pass.scan(buffer, spans: [0..<buffer.count], memo: memo, into: &withMemo) }
            pass.scan(buffer, spans: [0..<buffer.count], into: &without)
        }
        XCTAssertEqual(withMemo, without)
        XCTAssertEqual(withMemo.count, 500)
        // Six tokens of a line hold a stem (`token`, `self.token`, `sort_key`, `cache_key`,
        // `mapquest_key` and the value, which holds `pW`): each scored once, not 1,500 times.
        XCTAssertGreaterThan(memo.scored, 0)
        XCTAssertLessThanOrEqual(memo.scored, 6)
    }

    /// The stem test with its byte-pair table, against the plain reading of what it means:
    /// some stem occurs in the token, case folded with `| 0x20`.
    func testTheStemLookUpFindsWhatAPlainSearchFinds() {
        let stems = NamedCredentialReader.stems
        let alphabet = Array("pasSwWdDrecEtTokKeyYuUhbBR_-.0xz".utf8)
        var state: UInt64 = 3
        var found = 0
        for _ in 0..<50_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let length = 1 + Int((state >> 40) % 9)
            var token: [UInt8] = []
            for k in 0..<length { token.append(alphabet[Int((state >> UInt64(k * 5 % 60)) % UInt64(alphabet.count))]) }
            let folded = token.map { $0 | 0x20 }
            let plain = stems.contains { stem in
                folded.count >= stem.count && (0...(folded.count - stem.count)).contains { Array(folded[$0..<($0 + stem.count)]) == stem }
            }
            let fast = token.withUnsafeBufferPointer { NamedCredentialReader.mayHoldStem($0, 0..<$0.count) }
            XCTAssertEqual(fast, plain, String(decoding: token, as: UTF8.self))
            if plain { found += 1 }
        }
        XCTAssertGreaterThan(found, 200)
    }
}
