/// String-keyed storage that remembers insertion order and where each key was
/// written; shared by `TOMLTable` and the parser's `TableNode`.
///
/// Config tables are small (a rule has about ten keys), where a linear scan
/// beats hashing and saves a dictionary allocation per table. Past a
/// threshold a hash index is added, so a huge table stays fast too.
struct OrderedMap<Value> {
    struct Entry {
        let key: String
        var value: Value
        var position: TOMLPosition?
    }

    private static var indexThreshold: Int { 16 }

    private(set) var entries: [Entry] = []
    private var index: [String: Int]?

    init() {}

    var count: Int { entries.count }

    func slot(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    subscript(key: String) -> Entry? {
        slot(of: key).map { entries[$0] }
    }

    /// The caller has checked that `key` is new.
    mutating func append(_ key: String, _ value: Value, at position: TOMLPosition?) {
        entries.append(Entry(key: key, value: value, position: position))
        if index != nil {
            index![key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    mutating func setValue(_ value: Value, at slot: Int) {
        entries[slot].value = value
    }

    mutating func remove(at slot: Int) {
        entries.remove(at: slot)
        rebuildIndex()
    }

    /// The same keys, order, positions and index with converted values: no rehashing.
    func mapValues<Other>(_ transform: (Value) -> Other) -> OrderedMap<Other> {
        var result = OrderedMap<Other>()
        result.entries = entries.map { .init(key: $0.key, value: transform($0.value), position: $0.position) }
        result.index = index
        return result
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: entries.count)
        for (slot, entry) in entries.enumerated() { built[entry.key] = slot }
        index = built
    }
}

extension OrderedMap.Entry: Sendable where Value: Sendable {}
extension OrderedMap: Sendable where Value: Sendable {}
