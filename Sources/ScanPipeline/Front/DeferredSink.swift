import MatchEngine

/// What the front found in part of an input, kept to be delivered to the input's sink later
/// or dropped: the members of a zip found behind a streamed blob's first bytes count only
/// once the blob's end shows the zip's end record (`StreamedBlobScanner`).
final class DeferredSink {
    private enum Event {
        case finding(BufferFinding)
        case failure(RuleFailure, InputFront.FailurePlace)
        case problem([[UInt8]], String)
    }

    private var events: [Event] = []

    /// The sink that keeps what it is given.
    var sink: InputFront.Sink {
        InputFront.Sink(onFinding: { self.events.append(.finding($0)) },
                        onFailure: { self.events.append(.failure($0, $1)) },
                        onProblem: { self.events.append(.problem($0, $1)) })
    }

    /// Hands everything kept to `sink`, in the order it came.
    func replay(to sink: InputFront.Sink) {
        for event in events {
            switch event {
            case .finding(let f): sink.onFinding(f)
            case .failure(let failure, let place): sink.onFailure(failure, place)
            case .problem(let members, let message): sink.onProblem(members, message)
            }
        }
        events = []
    }
}
