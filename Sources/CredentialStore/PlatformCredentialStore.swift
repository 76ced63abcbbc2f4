/// The platform's secret store: the Keychain on Apple platforms, the Secret
/// Service elsewhere. Nil where neither exists — there is deliberately no
/// plain-file fallback.
public enum PlatformCredentialStore {
    public static var name: String {
        #if canImport(Security)
        return "keychain"
        #elseif canImport(CLibSecret)
        return "secret-service"
        #else
        return "none"
        #endif
    }

    public static func makeDefault(appID: String = "keyshape") -> CredentialStore? {
        #if canImport(Security)
        return KeychainCredentialStore(configuration: KeychainConfiguration(service: "dev.\(appID).credentials"))
        #elseif canImport(CLibSecret)
        return SecretServiceCredentialStore(appID: appID)
        #else
        return nil
        #endif
    }

    /// Store names a front end may offer; no plain-file store exists.
    public static var availableNames: [String] {
        var names = ["memory"]
        #if canImport(CLibSecret)
        names.append("secret-service")
        #endif
        #if canImport(Security)
        names.append("keychain")
        #endif
        return names
    }

    public static func make(named name: String, appID: String = "keyshape") -> CredentialStore? {
        switch name {
        case "memory":
            return InMemoryCredentialStore()
        #if canImport(CLibSecret)
        case "secret-service":
            return SecretServiceCredentialStore(appID: appID)
        #endif
        #if canImport(Security)
        case "keychain":
            return KeychainCredentialStore(configuration: KeychainConfiguration(service: "dev.\(appID).credentials"))
        #endif
        default:
            return nil
        }
    }
}
