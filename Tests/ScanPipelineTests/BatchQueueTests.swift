import Foundation
import XCTest
@testable import ScanPipeline

/// The hand-off between history's threads: the reader takes every commit listed so far,
/// never more than the queue's capacity or weight, in order, and sees the lister's error.
final class BatchQueueTests: XCTestCase {
    struct Failure: Error {}

    func testTakeAllIsBoundedOrderedAndComplete() {
        let queue = BatchQueue<Int>(capacity: 100, maxWeight: 50)
        let total = 20_000
        Thread.detachNewThread {
            for i in 0..<total {
                // Every 1000th item alone outweighs the limit: it still goes through, alone.
                queue.put(i, weight: i % 1000 == 999 ? 80 : 1)
            }
            queue.finish(error: Failure())
        }
        var seen: [Int] = []
        var batches = 0
        while let batch = queue.takeAll() {
            batches += 1
            XCTAssertFalse(batch.isEmpty)
            XCTAssertLessThanOrEqual(batch.count, 50)
            if let heavy = batch.firstIndex(where: { $0 % 1000 == 999 }) {
                XCTAssertEqual(batch.count, 1, "an item over the weight limit travels alone (at \(heavy))")
            }
            seen += batch
        }
        XCTAssertEqual(seen, Array(0..<total))
        XCTAssertGreaterThan(batches, total / 50)
        XCTAssertNotNil(queue.error as? Failure)
        XCTAssertNil(queue.takeAll())
    }
}
