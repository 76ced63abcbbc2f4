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

    public static func shannon(_ text: String) -> Double {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { shannon(UnsafeRawBufferPointer($0)) }
    }
}
