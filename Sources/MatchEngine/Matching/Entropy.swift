import Foundation

/// Shannon entropy in bits per byte: the gate that keeps `password = "changeme"` quiet.
public enum Entropy {
    public static func shannon(_ bytes: UnsafeRawBufferPointer) -> Double {
        guard bytes.count > 0 else { return 0 }
        var counts = [Int](repeating: 0, count: 256)
        for b in bytes { counts[Int(b)] += 1 }
        let n = Double(bytes.count)
        var h = 0.0
        for c in counts where c > 0 {
            let p = Double(c) / n
            h -= p * log2(p)
        }
        return h
    }

    /// Whether `bytes` are hex digits alone, in one case (`0-9a-f` or `0-9A-F`): a digest or
    /// a key written in hex, which `Rule.hexEntropy` measures on its own scale.
    public static func isHexDigits(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        var lower = false, upper = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "a")...UInt8(ascii: "f"): lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
            default: return false
            }
        }
        return !(lower && upper)
    }

    public static func shannon(_ text: String) -> Double {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { shannon(UnsafeRawBufferPointer($0)) }
    }
}
