#if canImport(Security)
import Foundation
import Security

/// The thin bridge from `KeychainAPI` to `SecItem*`. No decisions are made
/// here; everything worth testing lives in `KeychainCredentialStore`.
public struct SecurityKeychainAPI: KeychainAPI {
    public init() {}

    public func add(_ query: KeychainQuery) -> Int32 {
        SecItemAdd(query.securityDictionary, nil)
    }

    public func update(_ query: KeychainQuery, attributesToUpdate: KeychainQuery) -> Int32 {
        SecItemUpdate(query.securityDictionary, attributesToUpdate.securityDictionary)
    }

    public func copyMatching(_ query: KeychainQuery) -> (status: Int32, match: KeychainMatch) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query.securityDictionary, &result)
        guard status == errSecSuccess, let result else { return (status, .none) }
        if let data = result as? Data { return (status, .data(data)) }
        if let items = result as? [[String: Any]] {
            return (status, .items(items.map {
                KeychainItemAttributes(service: $0[kSecAttrService as String] as? String,
                                       account: $0[kSecAttrAccount as String] as? String)
            }))
        }
        if let item = result as? [String: Any] {
            return (status, .items([KeychainItemAttributes(service: item[kSecAttrService as String] as? String,
                                                           account: item[kSecAttrAccount as String] as? String)]))
        }
        return (status, .none)
    }

    public func delete(_ query: KeychainQuery) -> Int32 {
        SecItemDelete(query.securityDictionary)
    }
}

extension KeychainQuery {
    var securityDictionary: CFDictionary {
        var dictionary: [String: Any] = [:]
        for (key, value) in entries {
            guard let name = key.securityKey else { continue }
            dictionary[name as String] = value.securityValue
        }
        return dictionary as CFDictionary
    }
}

extension KeychainAttribute {
    var securityKey: CFString? {
        switch self {
        case .secClass: return kSecClass
        case .service: return kSecAttrService
        case .account: return kSecAttrAccount
        case .label: return kSecAttrLabel
        case .accessible: return kSecAttrAccessible
        case .synchronizable: return kSecAttrSynchronizable
        case .accessGroup: return kSecAttrAccessGroup
        case .valueData: return kSecValueData
        case .returnData: return kSecReturnData
        case .returnAttributes: return kSecReturnAttributes
        case .matchLimit: return kSecMatchLimit
        case .useDataProtectionKeychain:
            if #available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *) { return kSecUseDataProtectionKeychain }
            return nil
        }
    }
}

extension KeychainValue {
    var securityValue: Any {
        switch self {
        case .string(let text): return text
        case .data(let data): return data
        case .bool(let flag): return flag ? kCFBooleanTrue as Any : kCFBooleanFalse as Any
        case .constant(let constant): return constant.securityConstant
        }
    }
}

extension KeychainConstant {
    var securityConstant: CFString {
        switch self {
        case .classGenericPassword: return kSecClassGenericPassword
        case .accessibleWhenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .accessibleAfterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .accessibleWhenUnlocked: return kSecAttrAccessibleWhenUnlocked
        case .accessibleAfterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        case .matchLimitOne: return kSecMatchLimitOne
        case .matchLimitAll: return kSecMatchLimitAll
        case .synchronizableAny: return kSecAttrSynchronizableAny
        }
    }
}

extension KeychainCredentialStore {
    /// The store backed by the real Keychain.
    public convenience init(configuration: KeychainConfiguration = KeychainConfiguration()) {
        #if canImport(LocalAuthentication) && (os(macOS) || os(iOS) || os(visionOS))
        self.init(configuration: configuration, api: SecurityKeychainAPI(), presenceVerifier: LocalAuthenticationVerifier())
        #else
        self.init(configuration: configuration, api: SecurityKeychainAPI())
        #endif
    }
}
#endif
