import Foundation
import XCTest
import TestSupport

/// Members are read whole into one buffer per worker, kept from one archive to the next and
/// grown as members need: every size around the read size (256 KiB) and the buffer's edges,
/// with the size declared (tar) and not (a zip streamed through a tar, its sizes after the
/// data; the largest member, so the buffer grows while it is read), gives its key at its
/// line; a smaller member read after larger ones, in the same archive and in the next,
/// reports nothing of the bytes left behind by them.
extension ArchiveScanTests {
    func testMemberSizesAroundTheReadSizeAndOneBufferAcrossArchives() throws {
        let dir = TempDir()
        let secretLine = "token = \(key)\n"
        var expected: [String: Int] = [:]
        for (i, size) in [262_144, 262_145, 393_216, 786_431, 1_048_577].enumerated() {
            // `size` bytes ending with the key's line: lines of 8 hex digits (a pseudo-random
            // sequence: filler that compresses as real text does, far below the ratio limit),
            // after one shorter line when needed.
            let rest = size - secretLine.utf8.count
            var text = String(repeating: "x", count: max(0, rest % 9 - 1)) + (rest % 9 == 0 ? "" : "\n")
            var state: UInt32 = UInt32(i) &* 2_654_435_761 &+ 1
            for _ in 0..<(rest / 9) {
                state = state &* 1_664_525 &+ 1_013_904_223
                let hex = String(state, radix: 16)
                text += String(repeating: "0", count: 8 - hex.count) + hex + "\n"
            }
            XCTAssertEqual(text.utf8.count, rest)
            dir.write("w/m\(i).txt", text + secretLine)
            expected["m\(i).txt"] = (rest % 9 == 0 ? 0 : 1) + rest / 9 + 1
        }
        // Bytes of no key after them: a stale tail of the larger members would show a finding here.
        dir.write("w/small.txt", "x\n")
        // `zip - -` into a pipe cannot seek back to its local headers, so it writes the sizes
        // after the data: read through the tar (no seeking to the central directory), such a
        // member declares none.
        sh(dir, """
            cd w && tar -czf ../a.tgz m0.txt m1.txt m2.txt m3.txt small.txt && tar -cf ../b.tar small.txt
            mkdir ../z && cat m0.txt | zip -q - - | cat > ../z/exact.zip && cat m4.txt | zip -q - - | cat > ../z/grown.zip
            cd .. && tar -cf c.tar -C z exact.zip grown.zip && rm -r w z
            """)
        let r = keyshape(["scan", dir.path, "--format", "json", "--no-progress", "--jobs", "1"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoKey(r)
        let (findings, errors) = try json(r)
        XCTAssertEqual(errors.count, 0, r.stdout)
        let places = findings.compactMap { f -> String? in
            guard let l = f["location"] as? [String: Any] else { return nil }
            return "\(l["path"] as? String ?? "")!\((l["archive"] as? [String] ?? []).joined(separator: "!")):\(l["line"] as? Int ?? 0):\(l["column"] as? Int ?? 0)"
        }
        var want = expected.filter { $0.key != "m4.txt" }.map { "a.tgz!\($0.key):\($0.value):9" }
        want.append("c.tar!exact.zip!-:\(expected["m0.txt"]!):9")
        want.append("c.tar!grown.zip!-:\(expected["m4.txt"]!):9")
        XCTAssertEqual(Set(places), Set(want), r.stdout)
        XCTAssertEqual(places.count, want.count, r.stdout)
    }
}
