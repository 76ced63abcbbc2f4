/// Reads the structure of a TOML document: lines of key/value pairs and table
/// headers, and the nested arrays and inline tables inside values. Tokens come
/// from `Scanner`; the rules about what may be defined where live in `TableNode`.
struct Parser {
    /// How deep arrays, inline tables and tables may nest. Everything that
    /// walks a parsed document recurses, so an unbounded input could otherwise
    /// overflow the stack.
    static let maximumDepth = 128

    private var scanner: Scanner

    init(bytes: [UInt8], file: String) {
        scanner = Scanner(bytes: bytes, file: file)
    }

    mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        let root = TableNode(origin: .explicit, depth: 0, position: nil)
        var current = root
        scanner.skipByteOrderMark()
        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.peek else { break }
            switch byte {
            case Syntax.hash:
                try scanner.expectLineEnd(after: "comment")
            case Syntax.lineFeed, Syntax.carriageReturn:
                guard scanner.consumeNewline() else {
                    throw scanner.error("\(scanner.describeCurrent) is not allowed here")
                }
            case Syntax.openBracket:
                current = try parseHeader(root: root)
            default:
                try parseKeyValue(into: current)
                try scanner.expectLineEnd(after: "value")
            }
        }
        return root.makeTable()
    }

    /// `[a.b]` or `[[a.b]]`, returning the table that following pairs go into.
    private mutating func parseHeader(root: TableNode) throws(TOMLError) -> TableNode {
        let position = scanner.currentPosition
        scanner.index += 1
        let isArray = scanner.peek == Syntax.openBracket
        if isArray { scanner.index += 1 }
        let key = try scanner.scanKey()
        for _ in 0..<(isArray ? 2 : 1) {
            guard scanner.peek == Syntax.closeBracket else {
                let closing = isArray ? "']]' to close the array-of-tables header" : "']' to close the table header"
                throw scanner.error("expected \(closing), found \(scanner.describeCurrent)")
            }
            scanner.index += 1
        }
        let table = isArray
            ? try root.appendTable(key, at: position, file: scanner.file)
            : try root.defineTable(key, at: position, file: scanner.file)
        try scanner.expectLineEnd(after: "table header")
        return table
    }

    private mutating func parseKeyValue(into table: TableNode) throws(TOMLError) {
        let key = try scanner.scanKey()
        guard scanner.peek == Syntax.equals else {
            throw scanner.error("expected '=' after key, found \(scanner.describeCurrent)")
        }
        scanner.index += 1
        scanner.skipWhitespace()
        let value = try parseValue(depth: table.depth + key.count)
        try table.insert(value, at: key, file: scanner.file)
    }

    private mutating func parseValue(depth: Int) throws(TOMLError) -> TOMLValue {
        guard let byte = scanner.peek else {
            throw scanner.error("expected a value, found end of input")
        }
        switch byte {
        case Syntax.quote:
            if scanner.peek(at: 1) == Syntax.quote, scanner.peek(at: 2) == Syntax.quote {
                return .string(try scanner.scanMultilineBasicString())
            }
            return .string(try scanner.scanBasicString())
        case Syntax.apostrophe:
            if scanner.peek(at: 1) == Syntax.apostrophe, scanner.peek(at: 2) == Syntax.apostrophe {
                return .string(try scanner.scanMultilineLiteralString())
            }
            return .string(try scanner.scanLiteralString())
        case Syntax.openBracket:
            return try parseArray(depth: depth)
        case Syntax.openBrace:
            return try parseInlineTable(depth: depth)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return try scanner.scanBoolean()
        case Syntax.plus, Syntax.minus, UInt8(ascii: "i"), UInt8(ascii: "n"), 0x30...0x39:
            return try scanner.scanNumberOrDateTime()
        case _ where Syntax.isBareKeyByte(byte):
            throw scanner.unquotedTextError()
        default:
            throw scanner.error("expected a value, found \(scanner.describeCurrent)")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(TOMLError) {
        if depth > Self.maximumDepth {
            throw scanner.error("values are nested too deeply (limit \(Self.maximumDepth))")
        }
    }

    /// `[ ... ]`, which may span lines and hold comments and a trailing comma.
    private mutating func parseArray(depth: Int) throws(TOMLError) -> TOMLValue {
        try checkDepth(depth)
        let open = scanner.index
        scanner.index += 1
        var elements: [TOMLValue] = []
        while true {
            try scanner.skipTrivia()
            if scanner.peek == Syntax.closeBracket {
                scanner.index += 1
                return .array(elements)
            }
            if scanner.isAtEnd { throw scanner.error("unterminated array", at: open) }
            elements.append(try parseValue(depth: depth + 1))
            try scanner.skipTrivia()
            switch scanner.peek {
            case Syntax.comma?:
                scanner.index += 1
            case Syntax.closeBracket?:
                scanner.index += 1
                return .array(elements)
            case nil:
                throw scanner.error("unterminated array", at: open)
            default:
                throw scanner.error("expected ',' or ']' after an array element, found \(scanner.describeCurrent)")
            }
        }
    }

    /// `{ a = 1, b.c = 2 }`: one line, no trailing comma (TOML 1.0), closed once written.
    private mutating func parseInlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
        try checkDepth(depth)
        let open = scanner.index
        let node = TableNode(origin: .explicit, depth: depth, position: scanner.currentPosition)
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.peek == Syntax.closeBrace {
            scanner.index += 1
            return .table(node.makeTable())
        }
        while true {
            try checkInlineTableContinues(open: open)
            try parseKeyValue(into: node)
            scanner.skipWhitespace()
            try checkInlineTableContinues(open: open)
            switch scanner.peek {
            case Syntax.comma?:
                scanner.index += 1
                scanner.skipWhitespace()
                if scanner.peek == Syntax.closeBrace {
                    throw scanner.error("trailing comma is not allowed in an inline table")
                }
            case Syntax.closeBrace?:
                scanner.index += 1
                return .table(node.makeTable())
            default:
                throw scanner.error("expected ',' or '}' in an inline table, found \(scanner.describeCurrent)")
            }
        }
    }

    private mutating func checkInlineTableContinues(open: Int) throws(TOMLError) {
        if scanner.isAtEnd { throw scanner.error("unterminated inline table", at: open) }
        if scanner.isAtNewline {
            throw scanner.error("an inline table must be on a single line (missing '}'?)")
        }
    }
}
