import Foundation

/// keyshape's JSON and JSONL reports read back as Foundation objects, the one way the tests
/// parse them.
public enum JSONReport {
    /// The top-level object of a JSON document; nil when `data` is not one.
    public static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    public static func object<S: StringProtocol>(_ text: S) -> [String: Any]? { object(Data(text.utf8)) }

    /// A report's `findings` (or any other list of objects under `key`); [] when it has none.
    public static func list(_ key: String, in data: Data) -> [[String: Any]] {
        object(data)?[key] as? [[String: Any]] ?? []
    }

    /// Each line of a JSONL text that is a JSON object, in order.
    public static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { object(String($0)) }
    }
}
