import Archives
import MatchEngine

/// Archives that reach the scanner as git blobs outside the history's own batches: a staged
/// file held whole, and a blob too large to hold (over the chunk size, in `history` and
/// `staged` alike) streamed from `git cat-file`. Both open the archive as `scan` opens the
/// file, under the same limits, so a key in a staged `.jar` or in a 40 MiB `.ipa` committed
/// to git is found at `App.ipa!Payload/App.app/App` as it is on disk.
extension ArchiveMemberScan {
    /// What one archive blob gave.
    struct BlobScan {
        /// Member steps first, positions within the member, secret hashes computed (the
        /// member's bytes are gone after the call).
        var findings: [BufferFinding] = []
        /// Each archive problem and each rule failure inside a member, at its member chain
        /// (empty: the archive itself), with fixed text.
        var issues: [(members: [[UInt8]], message: String)] = []
        /// Member bytes scanned.
        var bytes = 0
        /// A zip found only by its end record (a self-extractor): the blob's own bytes hold
        /// the stub in front and are scanned as well, as `scan` does for the file.
        var scanBytesToo = false

        /// An issue as the history's blob errors print it (the blob's paths are added later):
        /// `member!inner: message`.
        static func text(_ issue: (members: [[UInt8]], message: String)) -> String {
            issue.members.isEmpty ? issue.message : String(ArchiveMemberScan.path("", issue.members).dropFirst()) + ": " + issue.message
        }
    }

    /// A blob held whole: its members, when its bytes are an archive (and archives are
    /// opened); nil otherwise.
    static func scanBlob(_ bytes: UnsafeRawBufferPointer, pipeline: BufferPipeline, contextPath: String?) -> BlobScan? {
        guard pipeline.options.maxArchiveDepth > 0, let kind = ArchiveKind.sniff(bytes) else { return nil }
        let headLength = min(bytes.count, ArchiveKind.headLength)
        let fromStart = ArchiveKind.sniff(head: UnsafeRawBufferPointer(rebasing: bytes[0..<headLength]), tail: nil, totalSize: nil) != nil
        var out = run(.buffer(bytes), pipeline: pipeline, contextPath: contextPath)
        out.scanBytesToo = kind == .zip && !fromStart
        return out
    }

    /// A blob streamed in: `head` is what was read of it so far (its first chunk), `fill`
    /// reads the rest front to back (0 at its end, -1 when git's output ended inside it).
    /// nil, with nothing read through `fill`, when `head` shows no archive: only the magic
    /// number at the start counts here (the end record of a self-extractor lies beyond the
    /// bytes read; such a blob is scanned as bytes).
    static func scanStream(head: UnsafeRawBufferPointer, fill: @escaping (UnsafeMutableRawBufferPointer) -> Int,
                           pipeline: BufferPipeline, contextPath: String?) -> BlobScan? {
        let sniffed = UnsafeRawBufferPointer(rebasing: head.prefix(ArchiveKind.headLength))
        guard pipeline.options.maxArchiveDepth > 0, ArchiveKind.sniff(head: sniffed, tail: nil, totalSize: nil) != nil else { return nil }
        var served = 0
        let source = ArchiveSource.stream { buffer in
            guard served < head.count else { return fill(buffer) }
            let count = min(buffer.count, head.count - served)
            buffer.baseAddress!.copyMemory(from: head.baseAddress! + served, byteCount: count)
            served += count
            return count
        }
        return run(source, pipeline: pipeline, contextPath: contextPath)
    }

    fileprivate static func run(_ source: ArchiveSource, pipeline: BufferPipeline, contextPath: String?) -> BlobScan {
        var out = BlobScan()
        let archives = ArchiveMemberScan(pipeline: pipeline, options: pipeline.options)
        let outcome = archives.scan(source, contextPath: contextPath, onFinding: { out.findings.append($0) }, onFailure: { failure, members in
            let issue = (members: members, message: failure.describe(ruleId: pipeline.rules[failure.ruleIndex].id, unit: "member"))
            if !out.issues.contains(where: { $0.members == issue.members && $0.message == issue.message }) { out.issues.append(issue) }
        }, onProblem: { members, message in
            out.issues.append((members, message))
        })
        out.bytes = outcome.bytes
        return out
    }
}

extension ArchiveMemberScan {
    /// A zip that begins past a blob's first byte (a self-extractor's members, behind its
    /// stub), read front to back through `fill` from its first local header; the caller
    /// decides from the blob's end whether it is one (`StreamedBlobScanner`).
    static func scanAppended(fill: @escaping (UnsafeMutableRawBufferPointer) -> Int, pipeline: BufferPipeline,
                             contextPath: String?) -> BlobScan {
        run(.stream(fill), pipeline: pipeline, contextPath: contextPath)
    }
}
