/// Android's Gradle build fields: `buildConfigField "String", "API_KEY", "\"value\""` (Groovy,
/// either quote, spaces around the commas or none, or Kotlin's call with parentheses) puts a
/// Java constant into the app's `BuildConfig`, and `resValue "string", "maps_key", "value"` a
/// string resource. The name is the second argument, the value the third: for a build field
/// a Java literal, so its own quotes (`\"…\"` inside `"…"`, `"…"` inside `'…'`) are set aside.
extension NamedCredentialReader {
    /// The functions whose second argument names and third argument holds the value.
    static let gradleFieldFunctions: [[UInt8]] = ["buildConfigField", "resValue"].map { Array($0.utf8) }

    func readGradleField(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        guard let q = byte(nameStart - 1), q == 0x22 || q == 0x27, byte(nameEnd) == q,
              let call = gradleFieldCall(beforeNameQuote: nameStart - 1) else { return nil }
        let comma = skipSpaces(nameEnd + 1)
        guard byte(comma) == UInt8(ascii: ","),
              let read = readValue(at: skipSpaces(comma + 1)), read.quoted, !isConcatenated(after: read.end) else { return nil }
        var value = read.value
        if call == 0 {
            // The Java literal inside the build script's string: `\"v\"` or `"v"`.
            if value.count >= 4, buffer[value.lowerBound] == UInt8(ascii: "\\"), byte(value.lowerBound + 1) == 0x22,
               buffer[value.upperBound - 2] == UInt8(ascii: "\\"), buffer[value.upperBound - 1] == 0x22 {
                value = (value.lowerBound + 2)..<(value.upperBound - 2)
            } else if value.count >= 2, buffer[value.lowerBound] == 0x22, buffer[value.upperBound - 1] == 0x22 {
                value = (value.lowerBound + 1)..<(value.upperBound - 1)
            } else {
                // No string constant (`"3"`, `"true"`, `"Boolean.parseBoolean(…)"`): Java code.
                return nil
            }
            guard !value.isEmpty else { return nil }
        }
        return candidate(name, value: value, matchStart: nameStart, matchEnd: read.end, form: .quoted)
    }

    /// Which of `gradleFieldFunctions` (its index) takes the name whose opening quote is at
    /// `quote` as its second argument: back over `,`, the first argument (a quoted type, at most
    /// 64 bytes: `"String"`, `'java.lang.String'`), `(` or spaces, to the function's name.
    func gradleFieldCall(beforeNameQuote quote: Int) -> Int? {
        var i = quote - 1
        while let b = byte(i), b == 0x20 || b == 0x09, quote - i < 16 { i -= 1 }
        guard byte(i) == UInt8(ascii: ",") else { return nil }
        i -= 1
        while let b = byte(i), b == 0x20 || b == 0x09, quote - i < 32 { i -= 1 }
        guard let close = byte(i), close == 0x22 || close == 0x27 else { return nil }
        let typeEnd = i
        i -= 1
        while let b = byte(i), b != close, b != 0x0A, typeEnd - i < 64 { i -= 1 }
        guard byte(i) == close, i < typeEnd - 1 else { return nil }
        i -= 1
        var steps = 0
        while let b = byte(i), b == 0x20 || b == 0x09 || b == UInt8(ascii: "("), steps < 16 { i -= 1; steps += 1 }
        guard steps > 0 else { return nil }
        let end = i + 1
        for (index, function) in NamedCredentialReader.gradleFieldFunctions.enumerated() where end >= function.count {
            let start = end - function.count
            guard buffer[start..<end].elementsEqual(function) else { continue }
            if let before = byte(start - 1), NamedCredentialReader.isNameByte(before) { continue }
            return index
        }
        return nil
    }
}
