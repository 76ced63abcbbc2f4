/// Checks the RFC 3339 shapes TOML allows: offset date-time, local
/// date-time, local date and local time. Values stay text; this only keeps a
/// typo such as `2024-13-01` from passing silently.
enum DateTimeSyntax {
    static func isValid(_ text: ArraySlice<UInt8>) -> Bool {
        var reader = Reader(bytes: text)
        if text.count >= 3, text[text.startIndex + 2] == Syntax.colon {
            return reader.time() && reader.isAtEnd
        }
        guard reader.date() else { return false }
        if reader.isAtEnd { return true }
        guard reader.take(where: { $0 == 0x54 || $0 == 0x74 || $0 == Syntax.space }),   // T t space
              reader.time() else { return false }
        if reader.isAtEnd { return true }
        return reader.offset() && reader.isAtEnd
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        var isAtEnd: Bool { index >= bytes.endIndex }

        mutating func take(where predicate: (UInt8) -> Bool) -> Bool {
            guard !isAtEnd, predicate(bytes[index]) else { return false }
            index += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard !isAtEnd, Syntax.isDigit(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return value
        }

        mutating func date() -> Bool {
            guard let year = number(digits: 4), take(where: { $0 == Syntax.minus }),
                  let month = number(digits: 2), take(where: { $0 == Syntax.minus }),
                  let day = number(digits: 2), (1...12).contains(month) else { return false }
            return day >= 1 && day <= Self.days(inMonth: month, year: year)
        }

        mutating func time() -> Bool {
            guard let hour = number(digits: 2), take(where: { $0 == Syntax.colon }),
                  let minute = number(digits: 2), take(where: { $0 == Syntax.colon }),
                  let second = number(digits: 2),
                  hour < 24, minute < 60, second <= 60 else { return false }   // 60: leap second
            if take(where: { $0 == Syntax.dot }) {
                guard take(where: Syntax.isDigit) else { return false }
                while take(where: Syntax.isDigit) {}
            }
            return true
        }

        mutating func offset() -> Bool {
            if take(where: { $0 == 0x5A || $0 == 0x7A }) { return true }   // Z z
            guard take(where: { $0 == Syntax.plus || $0 == Syntax.minus }),
                  let hour = number(digits: 2), take(where: { $0 == Syntax.colon }),
                  let minute = number(digits: 2) else { return false }
            return hour < 24 && minute < 60
        }

        static func days(inMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
    }
}
