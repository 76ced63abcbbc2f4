import TOML

/// Where two TOML documents that compare equal (TOMLTable's == ignores positions) carry
/// different positions, all the way down: one line a difference, [] when they agree. The
/// binary rule format and the embedded pack must keep every key's place in its source.
public enum TOMLPositions {
    public static func differences(_ a: TOMLTable, _ b: TOMLTable, _ path: String = "") -> [String] {
        var out: [String] = []
        if a.position != b.position { out.append("table \(path): \(String(describing: a.position)) != \(String(describing: b.position))") }
        for key in a.keys {
            let (x, y) = (a.position(of: key), b.position(of: key))
            if x != y { out.append("\(path).\(key): \(String(describing: x)) != \(String(describing: y))") }
            if let u = a[key], let v = b[key] { out += differences(u, v, path + "." + key) }
        }
        return out
    }

    public static func differences(_ a: TOMLValue, _ b: TOMLValue, _ path: String) -> [String] {
        switch (a, b) {
        case let (.table(x), .table(y)): return differences(x, y, path)
        case let (.array(x), .array(y)):
            return zip(x, y).enumerated().flatMap { i, pair in differences(pair.0, pair.1, "\(path)[\(i)]") }
        default: return []
        }
    }
}
