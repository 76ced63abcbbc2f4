/// A TOML table: string keys to values, remembering the order keys were
/// written in and where they were written.
///
/// Order and positions serve diagnostics and stable output only. Equality
/// ignores both, because TOML tables are unordered and a table written back
/// out (scalars before sub-tables) must still equal the one it came from.
public struct TOMLTable: Sendable {
    private var storage: OrderedMap<TOMLValue>

    /// Where the table's `[header]`, `[[header]]` or `{` was written; for a
    /// table that only exists because a longer key named it (`[a.b]` makes `a`),
    /// where that key part was written. `nil` for the document root and for
    /// tables built in code.
    public var position: TOMLPosition?

    public init() {
        storage = OrderedMap()
    }

    init(storage: OrderedMap<TOMLValue>, position: TOMLPosition?) {
        self.storage = storage
        self.position = position
    }

    /// In source (insertion) order.
    public var keys: [String] { storage.entries.map(\.key) }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.count == 0 }

    /// Setting a new key appends it after the existing ones; setting `nil` removes it.
    public subscript(key: String) -> TOMLValue? {
        get { storage[key]?.value }
        set {
            let slot = storage.slot(of: key)
            switch (slot, newValue) {
            case let (slot?, value?): storage.setValue(value, at: slot)
            case let (slot?, nil): storage.remove(at: slot)
            case let (nil, value?): storage.append(key, value, at: nil)
            case (nil, nil): break
            }
        }
    }

    /// Where `key` was written in the source, or `nil` if it was set in code.
    public func position(of key: String) -> TOMLPosition? {
        storage[key]?.position
    }
}

extension TOMLTable: Equatable {
    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for entry in lhs.storage.entries {
            guard let other = rhs.storage[entry.key], other.value == entry.value else { return false }
        }
        return true
    }
}

extension TOMLTable: CustomDebugStringConvertible {
    /// Inline TOML, so test failures show `{ id = "x" }` rather than a dump of
    /// the storage. Values are shown in full: keep it out of logs.
    public var debugDescription: String { TOMLWriter.inline(.table(self)) }
}
