/// ASCII byte classes for the code that reads values and names byte by byte (`Placeholder`,
/// the named-credential pass's name and value scorers): defined once here, and called
/// unqualified inside each type that conforms, as when each kept its own copy.
protocol ASCIIByteClasses {}

extension ASCIIByteClasses {
    static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b + 32 : b }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isLetter(_ b: UInt8) -> Bool { isUpper(b) || isLower(b) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isAlnum(_ b: UInt8) -> Bool { isLetter(b) || isDigit(b) }
}
