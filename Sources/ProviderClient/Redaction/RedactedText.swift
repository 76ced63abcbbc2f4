import Foundation

/// Text that has been through the `Redactor`. Only the redactor can make one, so a
/// parameter of this type (in log records, analytics events, diagnostics) proves the
/// text was checked: there is no public initialiser from a plain `String`.
///
/// Encodable but not Decodable: decoding would be a way to mint one from unchecked text.
public struct RedactedText: Hashable, Sendable, Encodable, CustomStringConvertible {
    public let text: String

    init(checked text: String) {
        self.text = text
    }

    /// Text written in the app's source code. A key typed here would be found by a
    /// secret scanner in the source itself, so constants need no run-time check.
    public init(constant: StaticString) {
        text = constant.description
    }

    public var description: String { text }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    static func + (lhs: RedactedText, rhs: RedactedText) -> RedactedText {
        RedactedText(checked: lhs.text + rhs.text)
    }
}
