import Foundation

extension NSLocking {
    /// `NSLocking.critical` needs macOS 14 / iOS 17; this keeps the library
    /// buildable for older Apple deployment targets.
    func critical<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
