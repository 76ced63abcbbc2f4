import Foundation

/// Keychain query keys, named after the `Security` constants they stand for.
/// The raw values are only names: `SecurityKeychainAPI` maps each case to the
/// real constant, so this file compiles (and the query logic is testable) on
/// Linux.
public enum KeychainAttribute: String, Hashable, Sendable, CaseIterable {
    case secClass = "kSecClass"
    case service = "kSecAttrService"
    case account = "kSecAttrAccount"
    case label = "kSecAttrLabel"
    case accessible = "kSecAttrAccessible"
    case synchronizable = "kSecAttrSynchronizable"
    case accessGroup = "kSecAttrAccessGroup"
    case valueData = "kSecValueData"
    case returnData = "kSecReturnData"
    case returnAttributes = "kSecReturnAttributes"
    case matchLimit = "kSecMatchLimit"
    case useDataProtectionKeychain = "kSecUseDataProtectionKeychain"
}

/// `Security` constants used as query values.
public enum KeychainConstant: String, Hashable, Sendable {
    case classGenericPassword = "kSecClassGenericPassword"
    case accessibleWhenUnlockedThisDeviceOnly = "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
    case accessibleAfterFirstUnlockThisDeviceOnly = "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
    // Synchronizable items cannot be ThisDeviceOnly; these are their counterparts.
    case accessibleWhenUnlocked = "kSecAttrAccessibleWhenUnlocked"
    case accessibleAfterFirstUnlock = "kSecAttrAccessibleAfterFirstUnlock"
    case matchLimitOne = "kSecMatchLimitOne"
    case matchLimitAll = "kSecMatchLimitAll"
    case synchronizableAny = "kSecAttrSynchronizableAny"
}

public enum KeychainValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case data(Data)
    case bool(Bool)
    case constant(KeychainConstant)

    public var description: String {
        switch self {
        case .string(let text): return text.debugDescription
        // Data in a query is the secret itself (kSecValueData).
        case .data: return Secret.redactedPlaceholder
        case .bool(let flag): return flag ? "true" : "false"
        case .constant(let constant): return constant.rawValue
        }
    }
}

/// A portable stand-in for the `[String: Any]` dictionaries `SecItem*` take.
public struct KeychainQuery: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public private(set) var entries: [KeychainAttribute: KeychainValue]

    public init(_ entries: [KeychainAttribute: KeychainValue] = [:]) {
        self.entries = entries
    }

    public subscript(key: KeychainAttribute) -> KeychainValue? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    public var description: String {
        let body = entries.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue): \($0.value)" }
            .joined(separator: ", ")
        return "[\(body)]"
    }

    public var debugDescription: String { "KeychainQuery\(description)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .dictionary) }
}
