// LAContext policy evaluation exists on macOS and iOS-family devices only.
#if canImport(LocalAuthentication) && (os(macOS) || os(iOS) || os(visionOS))
import Foundation
import LocalAuthentication

/// Device-owner authentication (biometry or passcode) before a reveal.
/// Blocks the calling thread until the user answers; LocalAuthentication
/// replies on its own queue, so waiting here does not deadlock. Call it off
/// the main thread in UI code.
public struct LocalAuthenticationVerifier: UserPresenceVerifier {
    public init() {}

    public func verifyUserPresence(reason: String) throws {
        let context = LAContext()
        var policyError: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &policyError) else {
            throw CredentialStoreError.userPresenceRequired(
                BackendStatus(backend: .keychain, code: policyError?.code ?? -1, domain: policyError?.domain))
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason) { success, error in
            outcome.set(success: success, error: error as NSError?)
            done.signal()
        }
        done.wait()
        let (success, error) = outcome.get()
        guard success else {
            throw CredentialStoreError.userPresenceRequired(
                BackendStatus(backend: .keychain, code: error?.code ?? -1, domain: error?.domain))
        }
    }

    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var success = false
        private var error: NSError?

        func set(success: Bool, error: NSError?) {
            lock.lock(); defer { lock.unlock() }
            self.success = success
            self.error = error
        }

        func get() -> (Bool, NSError?) {
            lock.lock(); defer { lock.unlock() }
            return (success, error)
        }
    }
}
#endif
