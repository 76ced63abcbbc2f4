/// A table under construction.
///
/// TOML's rules on what may be added to a table depend on how the table came
/// to exist, which the finished `TOMLTable` has no reason to remember, so
/// parsing builds this tree of reference nodes and converts it at the end.
final class TableNode {
    enum Origin {
        /// Exists only as a prefix of a header (`[a.b]` makes `a`); may still get a header of its own.
        case implicit
        /// Defined by a `[header]`, a `[[header]]`, braces, or being the document root.
        case explicit
        /// Made by a dotted key. Further dotted keys may add to it, and can
        /// only reach it from the section that made it: every other route
        /// passes through a table that has a header, which dotted keys may
        /// not enter.
        case dotted
    }

    enum Entry {
        /// Includes inline tables and arrays written as values: both are closed.
        case value(TOMLValue)
        case table(TableNode)
        case tableArray(TableArray)
    }

    final class TableArray {
        var elements: [TableNode] = []
    }

    var origin: Origin
    var position: TOMLPosition?
    let depth: Int
    private var entries = OrderedMap<Entry>()

    init(origin: Origin, depth: Int, position: TOMLPosition?) {
        self.origin = origin
        self.depth = depth
        self.position = position
    }

    func makeTable() -> TOMLTable {
        let storage = entries.mapValues { entry -> TOMLValue in
            switch entry {
            case .value(let value): return value
            case .table(let node): return .table(node.makeTable())
            case .tableArray(let array): return .array(array.elements.map { .table($0.makeTable()) })
            }
        }
        return TOMLTable(storage: storage, position: position)
    }

    // MARK: Headers

    /// `[path]`: defines the table, creating missing parents as implicit ones.
    func defineTable(_ path: [KeySegment], at header: TOMLPosition, file: String) throws(TOMLError) -> TableNode {
        let parent = try descendForHeader(path, file: file)
        let last = path[path.count - 1]
        switch parent.entries[last.name]?.value {
        case nil:
            return try parent.addTable(last, origin: .explicit, position: header, file: file)
        case .table(let node):
            switch node.origin {
            case .implicit:
                node.origin = .explicit
                node.position = header
                return node
            case .dotted:
                throw Self.error("this table was already defined with dotted keys", at: last, file: file)
            case .explicit:
                throw Self.error("this table is defined more than once" + Self.earlier(parent, last), at: last, file: file)
            }
        case .tableArray:
            throw Self.error("this key is already an array of tables; use [[...]] to add to it", at: last, file: file)
        case .value(let value):
            throw Self.valueConflict(value, path: path, at: last, file: file)
        }
    }

    /// `[[path]]`: appends a new table to the array of tables at `path`.
    func appendTable(_ path: [KeySegment], at header: TOMLPosition, file: String) throws(TOMLError) -> TableNode {
        let parent = try descendForHeader(path, file: file)
        let last = path[path.count - 1]
        let array: TableArray
        switch parent.entries[last.name]?.value {
        case nil:
            array = TableArray()
            parent.add(last, .tableArray(array))
        case .tableArray(let existing):
            array = existing
        case .table:
            throw Self.error("this key is already a table, not an array of tables", at: last, file: file)
        case .value(let value):
            throw Self.valueConflict(value, path: path, at: last, file: file)
        }
        let element = TableNode(origin: .explicit, depth: parent.depth + 1, position: header)
        try element.checkDepth(at: last, file: file)
        array.elements.append(element)
        return element
    }

    /// Walks all but the last part of a header's key. Headers may pass through
    /// any table, even one made by dotted keys, and through the latest element
    /// of an array of tables, which is how `[[rules.allowlists]]` finds its rule.
    private func descendForHeader(_ path: [KeySegment], file: String) throws(TOMLError) -> TableNode {
        var node = self
        for (offset, segment) in path.dropLast().enumerated() {
            switch node.entries[segment.name]?.value {
            case nil:
                node = try node.addTable(segment, origin: .implicit, position: segment.position, file: file)
            case .table(let child):
                node = child
            case .tableArray(let array):
                node = array.elements[array.elements.count - 1]
            case .value(let value):
                throw Self.valueConflict(value, path: Array(path[...offset]), at: segment, file: file)
            }
        }
        return node
    }

    // MARK: Key/value pairs

    /// `a.b.c = value` inside this table.
    func insert(_ value: TOMLValue, at path: [KeySegment], file: String) throws(TOMLError) {
        var node = self
        for (offset, segment) in path.dropLast().enumerated() {
            switch node.entries[segment.name]?.value {
            case nil:
                node = try node.addTable(segment, origin: .dotted, position: segment.position, file: file)
            case .table(let child):
                switch child.origin {
                case .dotted:
                    break
                case .implicit:
                    // Nothing defined it yet, so these dotted keys do, and from
                    // now on the usual dotted-table rules apply to it.
                    child.origin = .dotted
                default:
                    throw Self.error("this table is already defined; dotted keys cannot add to it here",
                                     at: segment, file: file)
                }
                node = child
            case .tableArray:
                throw Self.error("this key is an array of tables; dotted keys cannot add to it",
                                 at: segment, file: file)
            case .value(let existing):
                throw Self.valueConflict(existing, path: Array(path[...offset]), at: segment, file: file)
            }
        }
        let last = path[path.count - 1]
        guard node.entries.slot(of: last.name) == nil else {
            throw Self.error("duplicate key" + Self.earlier(node, last), at: last, file: file)
        }
        node.add(last, .value(value))
    }

    // MARK: Helpers

    private func add(_ segment: KeySegment, _ entry: Entry) {
        entries.append(segment.name, entry, at: segment.position)
    }

    private func addTable(_ segment: KeySegment, origin: Origin, position: TOMLPosition?, file: String) throws(TOMLError) -> TableNode {
        let child = TableNode(origin: origin, depth: depth + 1, position: position)
        try child.checkDepth(at: segment, file: file)
        add(segment, .table(child))
        return child
    }

    /// Bounds the tree so converting and comparing it can recurse safely.
    private func checkDepth(at segment: KeySegment, file: String) throws(TOMLError) {
        if depth > Parser.maximumDepth {
            throw Self.error("tables are nested too deeply (limit \(Parser.maximumDepth))", at: segment, file: file)
        }
    }

    /// Messages never name the key: a key name is text from the file, and a secret pasted
    /// where a name goes would reach stderr and CI logs. The error's position points at the
    /// key, and a duplicate also says where the first one is.
    private static func earlier(_ table: TableNode, _ segment: KeySegment) -> String {
        guard let first = table.entries[segment.name]?.position else { return "" }
        return " (first defined at line \(first.line), column \(first.column))"
    }

    private static func error(_ message: String, at segment: KeySegment, file: String) -> TOMLError {
        TOMLError(file: file, position: segment.position, message: message)
    }

    private static func valueConflict(_ value: TOMLValue, path: [KeySegment], at segment: KeySegment, file: String) -> TOMLError {
        let name = "this key"
        switch value {
        case .table:
            return error("\(name) is an inline table, which cannot be extended", at: segment, file: file)
        case .array:
            return error("\(name) is an array value, which cannot be extended or used as an array of tables", at: segment, file: file)
        default:
            let article = value.typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return error("\(name) is already \(article) \(value.typeName), not a table", at: segment, file: file)
        }
    }
}
