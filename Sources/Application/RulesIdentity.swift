import Foundation
import ScanCore
import ScanPipeline

/// A hash of what decides a run's findings besides the scanned bytes: the builtin rule files,
/// the `--rules` files, `--enable-rule`/`--disable-rule`, the config files read, the options
/// that change what is found (`--max-file-size`, `--min-string-length`,
/// `--ignore-inline-allow`, `--max-decode-depth`, `--max-archive-depth`,
/// `--max-archive-size`), keyshape's own version (a new scanner may find what an older one
/// missed) and the hash key. Two runs with the same hash find the same things in the same
/// bytes; `Rules/VERSION` alone would miss a `--rules` edit. History's per-blob cache is kept
/// per hash (`DatastoreBlobStore`), so a record is only read back by a run that would find
/// exactly what it says.
///
/// Not a secret and not an integrity check: two 64-bit FNV-1a-style lanes (different offset
/// bases and multipliers) is enough to tell rule packs apart, and needs no crypto library here.
public enum RulesIdentity {
    public static func hash(_ rules: RuleFlags, options: ScanOptions) -> String {
        var hasher = Hasher128()
        if !rules.noBuiltin {
            for (name, encoded) in BuiltinRules.tables {
                hasher.add("builtin:" + name)
                hasher.add(encoded.withUTF8Buffer { Array($0) })
            }
        }
        for path in rules.paths {
            for file in (try? RuleSources.tomlFiles(at: path)) ?? [path] {
                hasher.add("rules:" + file)
                hasher.add((try? SettingsFile.contents(of: file)) ?? [])
            }
        }
        for id in rules.enabled.sorted() { hasher.add("enable:" + id) }
        for id in rules.disabled.sorted() { hasher.add("disable:" + id) }
        for file in options.configFiles {
            hasher.add("config:" + file)
            hasher.add((try? SettingsFile.contents(of: file)) ?? [])
        }
        hasher.add("max-file-size:\(options.maxFileSize) min-string-length:\(options.minStringLength) inline:\(options.ignoreInlineAllow)")
        hasher.add("max-decode-depth:\(options.maxDecodeDepth) max-archive-depth:\(options.maxArchiveDepth) max-archive-size:\(options.maxArchiveSize)")
        hasher.add("keyshape:" + KeyshapeVersion.current)
        // The key changes every secretHash: it goes in as its id (a keyed hash of a fixed
        // text), never as itself. A run's random key makes the identity the run's own.
        hasher.add("key:" + options.secretKeying.id)
        return hasher.hex
    }

    struct Hasher128 {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        mutating func add(_ text: String) { add(Array(text.utf8)) }
        mutating func add(_ bytes: [UInt8]) {
            // The length first, so ("ab", "c") and ("a", "bc") differ.
            for byte in withUnsafeBytes(of: UInt64(bytes.count).littleEndian, Array.init) + bytes {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x9e37_79b9_7f4a_7c15
            }
        }
        var hex: String {
            [a, b].map { let s = String($0, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }.joined()
        }
    }
}
