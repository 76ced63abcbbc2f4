/// Booleans, numbers and date-times: the unquoted scalar values.
extension Scanner {
    mutating func scanBoolean() throws(TOMLError) -> TOMLValue {
        if matches("true") {
            index += 4
            return .boolean(true)
        }
        if matches("false") {
            index += 5
            return .boolean(false)
        }
        throw unquotedTextError()
    }

    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = word.utf8Start
        for i in 0..<count where bytes[index + i] != pointer[i] { return false }
        // `trueish` is not `true` followed by garbage but an unquoted word.
        if index + count < bytes.count, Syntax.isBareKeyByte(bytes[index + count]) { return false }
        return true
    }

    /// The commonest mistake in hand-written config is a string without quotes.
    mutating func unquotedTextError() -> TOMLError {
        error("expected a value, found \(describeCurrent) (strings must be quoted)")
    }

    /// Integers, floats and date-times all start alike, so the whole run of
    /// characters that could belong to one is taken first and then classified.
    mutating func scanNumberOrDateTime() throws(TOMLError) -> TOMLValue {
        let start = index
        var end = Self.tokenEnd(bytes, from: start)
        // A space may separate date from time: `1979-05-27 07:32:00`.
        if end - start == 10, Self.isDate(bytes, at: start), end + 3 < bytes.count,
           bytes[end] == Syntax.space, Syntax.isDigit(bytes[end + 1]), Syntax.isDigit(bytes[end + 2]),
           bytes[end + 3] == Syntax.colon {
            end = Self.tokenEnd(bytes, from: end + 1)
        }
        let value: TOMLValue
        if Self.isDate(bytes, at: start) || Self.isTime(bytes, at: start, end: end) {
            guard DateTimeSyntax.isValid(bytes[start..<end]) else { throw error("invalid date-time", at: start) }
            value = .datetime(String(decoding: bytes[start..<end], as: UTF8.self))
        } else {
            value = try number(from: start, to: end)
        }
        index = end
        return value
    }

    private static func tokenEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            guard Syntax.isBareKeyByte(byte) || byte == Syntax.plus || byte == Syntax.dot || byte == Syntax.colon else { break }
            end += 1
        }
        return end
    }

    private static func isDate(_ bytes: [UInt8], at start: Int) -> Bool {
        guard start + 10 <= bytes.count else { return false }
        for offset in 0..<10 {
            let byte = bytes[start + offset]
            if offset == 4 || offset == 7 {
                if byte != Syntax.minus { return false }
            } else if !Syntax.isDigit(byte) {
                return false
            }
        }
        return true
    }

    private static func isTime(_ bytes: [UInt8], at start: Int, end: Int) -> Bool {
        end - start >= 3 && Syntax.isDigit(bytes[start]) && Syntax.isDigit(bytes[start + 1]) && bytes[start + 2] == Syntax.colon
    }

    // MARK: Numbers

    private mutating func number(from start: Int, to end: Int) throws(TOMLError) -> TOMLValue {
        var i = start
        var negative = false
        if bytes[i] == Syntax.plus || bytes[i] == Syntax.minus {
            negative = bytes[i] == Syntax.minus
            i += 1
        }
        if end - i == 3 {
            let word = (bytes[i], bytes[i + 1], bytes[i + 2])
            if word == (0x69, 0x6E, 0x66) { return .float(negative ? -.infinity : .infinity) }   // inf
            if word == (0x6E, 0x61, 0x6E) { return .float(negative ? -.nan : .nan) }             // nan
        }
        guard i < end, Syntax.isDigit(bytes[i]) else {
            if i < end, Syntax.isLetter(bytes[i]) {
                index = start
                throw unquotedTextError()
            }
            throw error("invalid number: expected a digit, found \(describe(at: i))", at: i)
        }
        if bytes[i] == 0x30, i + 1 < end, let radix = Self.radix(prefix: bytes[i + 1]) {
            if i != start { throw error("a sign is not allowed on hexadecimal, octal or binary integers", at: start) }
            return .integer(try prefixedInteger(from: i + 2, to: end, radix: radix))
        }

        let integerStart = i
        i = try digits(from: i, to: end, radix: 10, what: "number")
        if bytes[integerStart] == 0x30, i - integerStart > 1 {
            throw error("leading zeros are not allowed in a number", at: integerStart)
        }
        var isFloat = false
        if i < end, bytes[i] == Syntax.dot {
            isFloat = true
            i = try digits(from: i + 1, to: end, radix: 10, what: "fraction")
        }
        if i < end, bytes[i] == 0x65 || bytes[i] == 0x45 {   // e E
            isFloat = true
            i += 1
            if i < end, bytes[i] == Syntax.plus || bytes[i] == Syntax.minus { i += 1 }
            i = try digits(from: i, to: end, radix: 10, what: "exponent")
        }
        guard i == end else { throw error("invalid number: unexpected \(describe(at: i))", at: i) }

        let cleaned = bytes[start..<end].filter { $0 != Syntax.underscore }
        if isFloat {
            guard let value = Double(String(decoding: cleaned, as: UTF8.self)) else {
                throw error("invalid float", at: start)
            }
            return .float(value)
        }
        guard let value = Self.accumulate(cleaned.drop(while: { $0 == Syntax.plus || $0 == Syntax.minus }),
                                          radix: 10, negative: negative) else {
            throw error("integer does not fit in 64 bits", at: start)
        }
        return .integer(value)
    }

    private static func radix(prefix: UInt8) -> Int64? {
        switch prefix {
        case UInt8(ascii: "x"): return 16
        case UInt8(ascii: "o"): return 8
        case UInt8(ascii: "b"): return 2
        default: return nil
        }
    }

    private mutating func prefixedInteger(from start: Int, to end: Int, radix: Int64) throws(TOMLError) -> Int64 {
        let name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
        let stop = try digits(from: start, to: end, radix: radix, what: "\(name) integer")
        guard stop == end else { throw error("invalid digit in \(name) integer: \(describe(at: stop))", at: stop) }
        let cleaned = bytes[start..<end].filter { $0 != Syntax.underscore }
        guard let value = Self.accumulate(cleaned, radix: radix, negative: false) else {
            throw error("integer does not fit in 64 bits", at: start - 2)
        }
        return value
    }

    /// Skips digits of `radix` with single underscores between them, and
    /// returns where they stop; at least one digit is required.
    private mutating func digits(from start: Int, to end: Int, radix: Int64, what: String) throws(TOMLError) -> Int {
        guard start < end, Self.digitValue(bytes[start], radix: radix) != nil else {
            throw error("invalid \(what): expected a digit, found \(describe(at: start))", at: start)
        }
        var i = start + 1
        while i < end {
            if Self.digitValue(bytes[i], radix: radix) != nil {
                i += 1
            } else if bytes[i] == Syntax.underscore {
                guard i + 1 < end, Self.digitValue(bytes[i + 1], radix: radix) != nil else {
                    throw error("invalid \(what): an underscore must sit between two digits", at: i)
                }
                i += 1
            } else {
                break
            }
        }
        return i
    }

    private static func digitValue(_ byte: UInt8, radix: Int64) -> Int64? {
        let value: Int64
        switch byte {
        case 0x30...0x39: value = Int64(byte - 0x30)
        case 0x41...0x46: value = Int64(byte - 0x41 + 10)
        case 0x61...0x66: value = Int64(byte - 0x61 + 10)
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// Accumulates towards the sign so that Int64.min, whose magnitude has no
    /// positive counterpart, still parses.
    private static func accumulate<Digits: Sequence<UInt8>>(_ digits: Digits, radix: Int64, negative: Bool) -> Int64? {
        var total: Int64 = 0
        for byte in digits {
            guard let digit = digitValue(byte, radix: radix) else { return nil }
            let (shifted, overflow1) = total.multipliedReportingOverflow(by: radix)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            total = next
        }
        return total
    }
}
