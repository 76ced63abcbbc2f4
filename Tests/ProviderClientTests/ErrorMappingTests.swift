import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest

final class ErrorMappingTests: XCTestCase {
    func testStatusMapping() {
        XCTAssertNil(ProviderError(status: 200))
        XCTAssertEqual(ProviderError(status: 401), .unauthorized)
        XCTAssertEqual(ProviderError(status: 403), .forbidden)
        XCTAssertEqual(ProviderError(status: 429, retryAfter: 7), .rateLimited(retryAfter: 7))
        XCTAssertEqual(ProviderError(status: 529, retryAfter: nil), .overloaded(retryAfter: nil))
        XCTAssertEqual(ProviderError(status: 503, retryAfter: 2), .overloaded(retryAfter: 2))
        XCTAssertEqual(ProviderError(status: 500), .server(status: 500))
        XCTAssertEqual(ProviderError(status: 404), .badRequest(status: 404))
        XCTAssertEqual(ProviderError(status: 307), .badRequest(status: 307))
    }

    func testRetryAfterParsing() {
        XCTAssertEqual(ProviderError.parseRetryAfter("7"), 7)
        XCTAssertNil(ProviderError.parseRetryAfter("soon"))
        XCTAssertNil(ProviderError.parseRetryAfter(nil))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let later = ProviderError.parseRetryAfter("Tue, 14 Nov 2023 22:13:27 GMT", now: now)
        XCTAssertEqual(later ?? -1, 7, accuracy: 0.5)
    }

    /// Seed: error strings for 401/403/429/5xx contain no credential, including when the
    /// provider echoes the key in its body (checked end to end in LoopbackServerTests).
    func testErrorStringsContainNoCredential() {
        let errors: [Error] = [ProviderError.unauthorized, ProviderError.forbidden, ProviderError.rateLimited(retryAfter: 7),
                               ProviderError.overloaded(retryAfter: nil), ProviderError.server(status: 500),
                               ProviderError.server(status: 502), ProviderError.badRequest(status: 400),
                               ProviderError.transport(.timedOut),
                               RequestRefusal.credentialInURL(.credentialValue), RequestRefusal.credentialRequired(connectionID: "w"),
                               RequestRefusal.unknownConnection("id " + TestSecrets.anthropicKey)]
        for error in errors {
            for text in [String(describing: error), String(reflecting: error), error.localizedDescription, "\(error)"] {
                XCTAssertNoSecret(text, "error text")
            }
        }
        XCTAssertEqual(String(describing: ProviderError.rateLimited(retryAfter: 6.2)), "rate limited (HTTP 429); retry after 7 s")
    }

    func testTransportFailureKeepsOnlyTheCode() {
        let error = URLError(.timedOut, userInfo: [NSURLErrorFailingURLStringErrorKey: "https://x/?key=" + TestSecrets.canary])
        let failure = TransportFailure(error)
        XCTAssertEqual(failure, .timedOut)
        XCTAssertNoSecret(String(describing: ProviderError.transport(failure)), "transport error")
    }

    func testStreamErrorTypes() {
        XCTAssertEqual(ProviderError(streamErrorType: "overloaded_error"), .overloaded(retryAfter: nil))
        XCTAssertEqual(ProviderError(streamErrorType: "authentication_error"), .unauthorized)
        XCTAssertEqual(ProviderError(streamErrorType: nil), .server(status: 500))
    }

    func testUnauthorizedIsAHealthRecordNotAVerdict() {
        XCTAssertEqual(ProviderError.unauthorized.checkOutcome, .failed(.unauthorized, httpStatus: 401))
        XCTAssertEqual(ProviderError.transport(.cannotConnect).checkOutcome, .failed(.network, httpStatus: nil))
    }
}
