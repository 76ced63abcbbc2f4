import Foundation
import ScanEngine
import ScanRules
import StandardStreams
import TOML

/// Loads the builtin rules (embedded at build time) and the files given with `--rules`.
enum RuleSources {
    struct Loaded {
        var files: [RuleFile]
        var warnings: [String]
    }

    static func load(_ inv: Invocation) throws -> Loaded {
        var files: [RuleFile] = []
        var warnings: [String] = []
        if !inv.noBuiltinRules {
            for (name, encoded) in BuiltinRules.tables {
                // Tables parsed at build time (EmbedRulesTool): decoded, not parsed again.
                let table: TOMLTable
                switch encoded.withUTF8Buffer({ bytes in Result { try TOMLBinaryReader.decode(UnsafeRawBufferPointer(bytes)) } }) {
                case .success(let decoded): table = decoded
                case .failure(let error):
                    throw RuleLoadError(SourcePosition(file: "builtin:" + name, line: 0),
                                        "the embedded rule pack is damaged (\(error)); rebuild keyshape")
                }
                files.append(try RuleLoader.load(table: table, file: "builtin:" + name, deferCompile: true))
            }
        }
        for path in inv.rulePaths {
            for file in try tomlFiles(at: path) {
                // Bounded and regular files only (a FIFO in a rules folder would block the open).
                let bytes: [UInt8]
                do { bytes = try SettingsFile.contents(of: file) } catch {
                    throw UsageError(message: "\(file): cannot read (\(error.message))")
                }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw UsageError(message: "\(file): not UTF-8 text")
                }
                let loaded = try RuleLoader.load(text: text, file: file)
                warnings += loaded.warnings.map(\.description)
                files.append(loaded)
            }
        }
        if files.allSatisfy({ $0.rules.isEmpty }) && inv.command != .rulesCheck {
            throw UsageError(message: "no rules loaded (--no-builtin-rules needs at least one --rules file with rules)")
        }
        return Loaded(files: files, warnings: warnings)
    }

    /// A file as is; a folder's `*.toml` files, sorted, not recursive.
    static func tomlFiles(at path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError(message: "\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".toml") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}

/// File errors as strerror's words ("no such file or directory"), never a bare number.
enum FileErrors {
    static func describe(_ failure: StandardStream.Failure) -> String {
        failure.description.lowercased()
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        // Foundation on Linux often gives only a Cocoa code; these are the ones file reads
        // and writes produce, named by the errno they stand for.
        switch ns.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return posix(ENOENT)
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return posix(EACCES)
        case NSFileWriteOutOfSpaceError: return posix(ENOSPC)
        case NSFileWriteVolumeReadOnlyError: return posix(EROFS)
        case NSFileWriteFileExistsError: return posix(EEXIST)
        case NSFileReadTooLargeError: return posix(EFBIG)
        case NSFileReadInvalidFileNameError, NSFileWriteInvalidFileNameError: return posix(ENAMETOOLONG)
        default: return "unexpected file system error"
        }
    }

    static func posix(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }
}
