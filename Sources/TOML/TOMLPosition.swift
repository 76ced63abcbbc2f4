/// A place in a TOML document, as an editor would show it.
///
/// Both numbers are 1-based. `column` counts Unicode scalars, not bytes, so a
/// position after non-ASCII text still matches what a person sees on screen.
public struct TOMLPosition: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
