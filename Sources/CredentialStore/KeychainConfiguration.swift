/// How keychain items are created. Every choice is explicit and defaults to
/// the most restrictive option.
public struct KeychainConfiguration: Equatable, Sendable {
    /// Whether the app reads keys while the device is locked (background
    /// refresh, scheduled jobs). Only then is `AfterFirstUnlock` used.
    public enum BackgroundAccess: Equatable, Sendable {
        case notNeeded
        case declared
    }

    public var service: String
    public var backgroundAccess: BackgroundAccess
    /// iCloud Keychain sync; off unless the product asks for it.
    public var synchronizable: Bool
    /// Sharing with app extensions; none unless the product asks for it.
    public var accessGroup: String?
    /// Require user presence (biometry or passcode) for `reveal`, i.e. for
    /// showing or exporting the raw key. Routine reads never prompt.
    public var revealRequiresUserPresence: Bool
    /// macOS: use the data-protection keychain (iOS semantics) instead of
    /// the legacy file keychain, so accessibility classes are honoured.
    public var useDataProtectionKeychain: Bool

    public static let defaultService = "dev.keyshape.credentials"

    public init(service: String = defaultService, backgroundAccess: BackgroundAccess = .notNeeded,
                synchronizable: Bool = false, accessGroup: String? = nil,
                revealRequiresUserPresence: Bool = false, useDataProtectionKeychain: Bool = true) {
        self.service = service
        self.backgroundAccess = backgroundAccess
        self.synchronizable = synchronizable
        self.accessGroup = accessGroup
        self.revealRequiresUserPresence = revealRequiresUserPresence
        self.useDataProtectionKeychain = useDataProtectionKeychain
    }

    /// The accessibility class sent on add.
    public var accessibility: KeychainConstant {
        switch (backgroundAccess, synchronizable) {
        case (.notNeeded, false): return .accessibleWhenUnlockedThisDeviceOnly
        case (.declared, false): return .accessibleAfterFirstUnlockThisDeviceOnly
        case (.notNeeded, true): return .accessibleWhenUnlocked
        case (.declared, true): return .accessibleAfterFirstUnlock
        }
    }
}
