/// What the app-format harnesses (`BinaryPlistFuzzer`, `DEXFuzzer`, `AndroidResourcesFuzzer`,
/// `JavaClassFuzzer`) check for one input, and what the seed replay test runs on every
/// committed seed.
///
/// The input is parsed as the harness's format whatever its magic says: the parse returns or
/// throws (a trap is the harness's crash); every string lies inside the buffer, the strings
/// are in order and do not overlap, a UTF-16 string has an even length, every place index is
/// valid and every place name bounded, warnings are few, each string's place is found again
/// by offset, and parsing the same bytes twice gives the same answer.
public enum AppFormatsCheck {
    /// What went wrong, one line each; empty when the input was handled as it must be. Never
    /// quotes the input.
    public static func problems(_ bytes: [UInt8], as format: AppFormat) -> [String] {
        var problems: [String] = []
        let first = bytes.withUnsafeBytes { try? AppFormatParser.parse($0, as: format) }
        let again = bytes.withUnsafeBytes { try? AppFormatParser.parse($0, as: format) }
        guard let doc = first else {
            if again != nil { problems.append("a second parse succeeded where the first threw") }
            return problems
        }
        guard let twin = again, twin.strings == doc.strings, twin.places == doc.places, twin.warnings == doc.warnings else {
            problems.append("parsing the same bytes twice gave different documents")
            return problems
        }
        if doc.format != format { problems.append("the document names another format") }
        if doc.warnings.count > 8 { problems.append("more than 8 warnings") }
        for place in doc.places where place.utf8.count > 512 { problems.append("a place name is \(place.utf8.count) bytes long") }
        var previousEnd = 0
        for (i, s) in doc.strings.enumerated() {
            if s.offset < 0 || s.length <= 0 || s.offset > bytes.count || s.length > bytes.count - s.offset {
                problems.append("string \(i) lies outside the buffer")
            }
            if s.offset < previousEnd { problems.append("string \(i) overlaps or precedes the one before it") }
            if (s.encoding == .utf16BE || s.encoding == .utf16LE) && s.length % 2 != 0 { problems.append("UTF-16 string \(i) has an odd length") }
            if s.place < -1 || Int(s.place) >= doc.places.count { problems.append("string \(i) has place index \(s.place)") }
            if doc.string(containing: s.offset) != i || doc.string(containing: s.end - 1) != i { problems.append("string \(i) is not found again by offset") }
            previousEnd = s.end
        }
        if bytes.count >= AppFormat.sniffLength, let sniffed = bytes.withUnsafeBytes({ AppFormat.sniff($0) }), sniffed == format {
            let viaSniff = bytes.withUnsafeBytes { try? AppFormatParser.parse($0) }
            if viaSniff?.strings != doc.strings { problems.append("the sniffed parse differs from the forced one") }
        }
        return problems
    }
}
