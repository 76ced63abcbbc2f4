import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a running task reports to the code that started it.
enum TransportEvent: Sendable {
    case response(HTTPURLResponse)
    case data(Data)
    case redirected(from: Origin, to: Origin, strippedHeaders: [String])
}

/// The session delegate: per-task state keyed by task identifier (FoundationNetworking
/// on Linux does not support per-task delegates), redirect handling and streaming.
///
/// Redirects go through `willPerformHTTPRedirection`, which on both Apple platforms and
/// FoundationNetworking receives the new request with the original headers copied in;
/// the policy strips the credential headers before it is sent (verified against a
/// loopback server on Linux by the tests). FoundationNetworking does not resend a POST
/// body on 307/308, so a same-origin redirect of a chat request arrives empty there and
/// the provider answers 400.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct TaskState {
        var continuation: AsyncThrowingStream<TransportEvent, Error>.Continuation
        var policy: RedirectPolicy
        var redirects = 0
    }

    private let lock = NSLock()
    private var tasks: [Int: TaskState] = [:]

    func register(_ task: URLSessionTask, continuation: AsyncThrowingStream<TransportEvent, Error>.Continuation,
                  policy: RedirectPolicy) {
        lock.lock(); defer { lock.unlock() }
        tasks[task.taskIdentifier] = TaskState(continuation: continuation, policy: policy)
    }

    private func state(_ task: URLSessionTask) -> TaskState? {
        lock.lock(); defer { lock.unlock() }
        return tasks[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        lock.lock()
        guard var state = tasks[task.taskIdentifier] else {
            lock.unlock()
            completionHandler(nil)
            return
        }
        state.redirects += 1
        tasks[task.taskIdentifier] = state
        lock.unlock()
        let decision = state.policy.decide(request, redirectCount: state.redirects)
        if let target = decision.target, target != state.policy.origin {
            state.continuation.yield(.redirected(from: state.policy.origin, to: target, strippedHeaders: decision.stripped))
        }
        // nil stops following: the 3xx becomes the response, mapped to `badRequest`.
        completionHandler(decision.request)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let state = state(dataTask) else {
            completionHandler(.cancel)
            return
        }
        guard let http = response as? HTTPURLResponse else {
            state.continuation.finish(throwing: ProviderError.transport(.invalidResponse))
            completionHandler(.cancel)
            return
        }
        state.continuation.yield(.response(http))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state(dataTask)?.continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let state = tasks.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let state else { return }
        if let error {
            if (error as? URLError)?.code == .cancelled {
                state.continuation.finish(throwing: CancellationError())
            } else {
                state.continuation.finish(throwing: ProviderError.transport(TransportFailure(error)))
            }
        } else {
            state.continuation.finish()
        }
    }

    // Never answer authentication challenges: credentials travel in headers the client
    // set, not in URLCredential storage that could offer them to another host.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        completionHandler(.performDefaultHandling, nil)
    }
}
