import Foundation
import ScanPipeline
import MatchEngine
import StandardStreams
import TOML
import CommandLineFlags

/// Loads the builtin rules (embedded at build time) and the files given with `--rules`.
public enum RuleSources {
    public struct Loaded {
        public var files: [RuleFile]
        public var warnings: [String]
        /// Where a gitleaks config from the environment came from (`GITLEAKS_CONFIG`'s path, or
        /// `$GITLEAKS_CONFIG_TOML`), for the summary; nil when none was read.
        public var gitleaksConfig: String? = nil
    }

    /// - Parameters:
    ///   - configFile: `--config FILE`; with it (or with `--rules`) gitleaks' environment is not read.
    ///   - noneAllowed: no rules at all is not an error (`rules check` of an empty folder).
    public static func load(_ rules: RuleFlags, configFile: String? = nil, noneAllowed: Bool = false) throws -> Loaded {
        var files: [RuleFile] = []
        var warnings: [String] = []
        if !rules.noBuiltin {
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
        for path in rules.paths {
            for file in try tomlFiles(at: path) {
                try loadExtending(file, into: &files, warnings: &warnings)
            }
        }
        // gitleaks' environment, as gitleaks reads it when it is given no config: the caller's
        // own setting (like a flag, trusted), so it adds rules as `--rules` would.
        var gitleaksConfig: String?
        let env = ProcessInfo.processInfo.environment
        if rules.paths.isEmpty && configFile == nil {
            if let path = env["GITLEAKS_CONFIG"], !path.isEmpty {
                try loadExtending(path, into: &files, warnings: &warnings)
                gitleaksConfig = path
            } else if let text = env["GITLEAKS_CONFIG_TOML"], !text.isEmpty {
                let name = "$GITLEAKS_CONFIG_TOML"
                let loaded = try RuleLoader.load(text: text, file: name)
                warnings += loaded.warnings.map(\.description)
                if let base = loaded.extendPath { try loadExtending(base, into: &files, warnings: &warnings, depth: 1) }
                files.append(loaded)
                gitleaksConfig = name
            }
        }
        if files.allSatisfy({ $0.rules.isEmpty }) && !noneAllowed {
            throw UsageError(message: "no rules loaded (--no-builtin-rules needs at least one --rules file with rules)")
        }
        warnings += RuleFile.unknownIdWarnings(files).map(\.description)
        return Loaded(files: files, warnings: warnings, gitleaksConfig: gitleaksConfig)
    }

    /// gitleaks' `[extend] path` goes at most this deep (a base that extends a base), as in
    /// gitleaks; a deeper chain, or a loop, is an error rather than a silent stop.
    static let maxExtendDepth = 2

    /// Loads a rules file and, first, the base config its `[extend] path` names (relative to
    /// the working directory, as gitleaks reads it), so the file's own rules replace the base's
    /// of the same id and its `disabledRules` apply to the base's.
    static func loadExtending(_ file: String, into files: inout [RuleFile], warnings: inout [String], depth: Int = 0) throws {
        let loaded = try RuleLoader.load(text: try readText(file), file: file)
        warnings += loaded.warnings.map(\.description)
        if let base = loaded.extendPath {
            guard depth < maxExtendDepth else {
                throw UsageError(message: "\(file): `[extend] path` goes deeper than \(maxExtendDepth) files (or loops)")
            }
            try loadExtending(base, into: &files, warnings: &warnings, depth: depth + 1)
        }
        files.append(loaded)
    }

    /// A rules file's text: bounded, regular files only (a FIFO in a rules folder would block
    /// the open), UTF-8.
    static func readText(_ file: String) throws -> String {
        let bytes: [UInt8]
        do { bytes = try SettingsFile.contents(of: file) } catch {
            throw UsageError(message: "\(file): cannot read (\(error.message))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError(message: "\(file): not UTF-8 text")
        }
        return text
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
public enum FileErrors {
    public static func describe(_ failure: StandardStream.Failure) -> String {
        failure.description.lowercased()
    }

    public static func describe(_ error: Error) -> String {
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
