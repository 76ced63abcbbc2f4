/// A size as flags and config files give it.
public enum ByteSize {
    /// Parses `10`, `64K`, `100M`, `100MiB`, `2G`, `2GB` (binary multiples).
    public static func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = ""
        while let last = digits.last, !last.isNumber { unit = String(last) + unit; digits = digits.dropLast() }
        guard let n = Int(digits), n >= 0 else { return nil }
        let multiplier: Int
        switch unit.lowercased() {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1 << 10
        case "m", "mb", "mib": multiplier = 1 << 20
        case "g", "gb", "gib": multiplier = 1 << 30
        case "t", "tb", "tib": multiplier = 1 << 40
        default: return nil
        }
        let (product, overflow) = n.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
