import Foundation

/// `OSStatus` values the Keychain logic distinguishes. Defined here so the
/// logic and its tests do not need `Security`.
public enum KeychainStatus {
    public static let success: Int32 = 0
    public static let itemNotFound: Int32 = -25300       // errSecItemNotFound
    public static let duplicateItem: Int32 = -25299      // errSecDuplicateItem
    public static let interactionNotAllowed: Int32 = -25308 // errSecInteractionNotAllowed
    public static let missingEntitlement: Int32 = -34018 // errSecMissingEntitlement
    public static let authFailed: Int32 = -25293         // errSecAuthFailed
    public static let userCanceled: Int32 = -128         // errSecUserCanceled
    public static let notAvailable: Int32 = -25291       // errSecNotAvailable
    public static let param: Int32 = -50                 // errSecParam
}

/// Attributes returned for one item by a `kSecReturnAttributes` search.
public struct KeychainItemAttributes: Equatable, Sendable {
    public var service: String?
    public var account: String?

    public init(service: String?, account: String?) {
        self.service = service
        self.account = account
    }
}

/// What `SecItemCopyMatching` handed back.
public enum KeychainMatch: Equatable, Sendable {
    case none
    case data(Data)
    case items([KeychainItemAttributes])
}

/// The four `SecItem*` calls, as a seam: `SecurityKeychainAPI` forwards to
/// `Security` on Apple platforms; tests use a fake that behaves like the
/// Keychain.
public protocol KeychainAPI: Sendable {
    func add(_ query: KeychainQuery) -> Int32
    func update(_ query: KeychainQuery, attributesToUpdate: KeychainQuery) -> Int32
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, match: KeychainMatch)
    func delete(_ query: KeychainQuery) -> Int32
}
