// The entry point and the per-input body shared by every libFuzzer harness: a harness's main
// is one call, `FuzzDriver.run(name) { bytes in problems }`, and this file holds the
// `LLVMFuzzerTestOneInput` that runs that check and traps on a problem.
//
// Built with `-Xswiftc -DKEYSHAPE_LIBFUZZER` (and `-sanitize=fuzzer,address`), `run` hands
// control to libFuzzer's driver, exactly as libFuzzer's own main would. A plain build makes
// the same harness a replay tool: every file given on the command line, and every file in a
// folder given there, goes once through the harness, so a crash input can be reproduced
// (and a seed folder checked) without libFuzzer.
//
// Why the harnesses call this from an @main instead of letting libFuzzer's main run: SwiftPM
// links every executable with `--defsym main=<Target>_main` (testable executables), so a
// harness without an entry point fails to link (swiftlang/swift#75800); see
// Sources/ObjectFilesFuzzer/ObjectFilesFuzzer.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if KEYSHAPE_LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif

public enum FuzzDriver {
    /// What a harness checks on one input: the problems it found, none when all is well.
    public typealias Check = ([UInt8]) -> [String]

    /// The running harness: libFuzzer's callback is a C function and cannot capture it.
    nonisolated(unsafe) static var harness: (name: String, check: Check)?

    /// Runs `check` on every input (libFuzzer's, or the files named on the command line) and
    /// traps on the first input that has a problem, after printing the problems to stderr
    /// as `name: problem` lines.
    public static func run(_ name: String, check: @escaping Check) -> Never {
        harness = (name, check)
        #if KEYSHAPE_LIBFUZZER
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzDriverTestOneInput))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in files(at: path) {
                guard let bytes = read(file) else {
                    fputs("\(name): cannot read \(file)\n", stderr)
                    exit(2)
                }
                _ = bytes.withUnsafeBufferPointer { fuzzDriverTestOneInput($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("\(name): \(count) inputs ok")
        exit(0)
        #endif
    }

    /// One input through the harness's check; 0 when it has no problem.
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        guard let (name, check) = harness else { return 0 }
        let problems = check(Array(UnsafeBufferPointer(start: data, count: size)))
        if !problems.isEmpty {
            // A trap is what libFuzzer records as a crash and saves the input for.
            fputs(problems.map { "\(name): \($0)\n" }.joined(), stderr)
            abort()
        }
        return 0
    }

    /// A file as is; a folder's regular files, sorted (not recursive).
    static func files(at path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            var st = stat()
            let full = path + "/" + name
            if !name.hasPrefix("."), stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { names.append(full) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return ferror(file) == 0 ? bytes : nil
    }
}

/// libFuzzer's per-input entry: the one definition of the symbol in every harness.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDriverTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.testOneInput(data, size)
}
