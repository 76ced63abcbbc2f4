import Foundation

/// A bounded hand-off between two of history's threads: the commit lister and the blob
/// reader, the blob reader and the attributing thread.
final class BatchQueue<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []
    private var weight = 0
    private let capacity: Int
    private let maxWeight: Int
    private var done = false
    private(set) var error: Error?

    /// - Parameters:
    ///   - capacity: `put` waits while this many items are queued;
    ///   - maxWeight: or while the queued items weigh this much (at least one is taken).
    init(capacity: Int, maxWeight: Int = .max) {
        self.capacity = capacity
        self.maxWeight = maxWeight
    }

    func put(_ item: T, weight w: Int = 0) {
        condition.lock()
        while !items.isEmpty && (items.count >= capacity || weight + w > maxWeight) { condition.wait() }
        items.append(item)
        weight += w
        condition.broadcast()
        condition.unlock()
    }

    /// Everything queued (at least one item, waiting for it); nil once finished and empty.
    func takeAll() -> [T]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !done { condition.wait() }
        if items.isEmpty { return nil }
        var taken: [T] = []
        swap(&taken, &items)
        weight = 0
        condition.broadcast()
        return taken
    }

    func finish(error: Error?) {
        condition.lock()
        done = true
        self.error = error
        condition.broadcast()
        condition.unlock()
    }

    func take() -> T? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !done { condition.wait() }
        if items.isEmpty { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }
}
