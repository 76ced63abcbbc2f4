import Foundation
import XCTest

/// scripts/test-provider-server.py on 127.0.0.1, started per test and stopped after.
/// It records every request; see the script for the routes and the two log files.
final class TestServer {
    struct Request: Decodable {
        var port: Int
        var requestLine: String
        var headers: [[String]]
        var body: String

        func header(_ name: String) -> String? {
            headers.first { $0[0].lowercased() == name.lowercased() }?[1]
        }
    }

    struct ReceivedCredentials: Decodable {
        var port: Int
        var path: String
        var credentials: [[String]]

        func value(_ name: String) -> String? {
            credentials.first { $0[0].lowercased() == name.lowercased() }?[1]
        }
    }

    let ports: [Int]
    /// Safe for the artifact folder: credential header values are replaced by their length.
    let requestLog: URL
    /// Raw credential header values; stays in a private folder.
    let credentialLog: URL
    private let process: Process
    private let stdin: Pipe
    private let privateFolder: TemporaryFolder

    init(ports count: Int = 2, requestLog: URL? = nil, credentialHeaders: [String] = []) throws {
        privateFolder = TemporaryFolder(prefix: "provider-server")
        self.requestLog = requestLog ?? privateFolder.file("requests.jsonl")
        credentialLog = privateFolder.file("credentials.jsonl")
        _ = FileManager.default.createFile(atPath: self.requestLog.path, contents: nil)
        _ = FileManager.default.createFile(atPath: credentialLog.path, contents: nil)

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Repo.path("scripts/test-provider-server.py").path, "--ports", String(count),
                         "--log", self.requestLog.path, "--auth-log", credentialLog.path, "--max-seconds", "300"]
        for name in credentialHeaders { arguments += ["--credential-header", name] }
        process.arguments = arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()

        // The first stdout line announces the ports; wait for it, bounded.
        final class Box: @unchecked Sendable { var line = Data() }
        let box = Box()
        let ready = DispatchSemaphore(value: 0)
        let handle = stdout.fileHandleForReading
        DispatchQueue.global().async {
            while !box.line.contains(0x0A) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                box.line.append(chunk)
            }
            ready.signal()
        }
        guard ready.wait(timeout: .now() + 20) == .success,
              let object = try? JSONSerialization.jsonObject(with: box.line) as? [String: Any],
              let ports = object["ports"] as? [Int], ports.count == count
        else {
            process.terminate()
            throw NSError(domain: "TestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the test server did not start"])
        }
        self.ports = ports
    }

    deinit {
        stop()
    }

    /// Closing stdin makes the server exit; terminate is the fallback.
    func stop() {
        guard process.isRunning else { return }
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    func baseURL(_ path: String, port index: Int = 0) -> URL {
        URL(string: "http://127.0.0.1:\(ports[index])\(path)")!
    }

    var requests: [Request] { Self.lines(requestLog) }
    var received: [ReceivedCredentials] { Self.lines(credentialLog) }

    private static func lines<T: Decodable>(_ url: URL) -> [T] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }
}
