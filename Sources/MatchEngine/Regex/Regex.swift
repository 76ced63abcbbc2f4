import CPCRE2
import Synchronization

/// A compiled PCRE2 pattern that matches raw bytes (no UTF mode: binary data and invalid
/// UTF-8 are ordinary input, never undefined behaviour).
///
/// The compiled code is immutable after init and PCRE2 allows concurrent matching with
/// it, so one Regex is shared by every worker; each worker brings its own `MatchScratch`.
public final class Regex: @unchecked Sendable {
    /// Set once, before `state` leaves 0 (or in init); read only after `prepare()`.
    private var compiled: OpaquePointer?
    private var compileError: CompileError?
    private var groups = 0
    public let pattern: String
    private let options: UInt32
    /// Compilation can wait for the first match (`deferred`), and JIT compilation always
    /// does: most rules never run on a given input (their keywords are absent), and
    /// compiling 500 patterns up front is a large part of a pre-commit hook's run time.
    /// 0 = not yet, 1 = JIT code, 2 = interpreter only, 3 = the pattern does not compile.
    private let state = Atomic<Int>(0)
    private let lock = Mutex<Void>(())
    /// A copy of the code JIT-compiled for PCRE2_PARTIAL_HARD, made on the first match that
    /// asks for partial matching (only reads with more input to follow do), so every other
    /// run pays nothing for it. A separate copy, because adding a JIT mode to code other
    /// threads are matching with is not safe. 0 = not yet, 1 = made (nil if the copy failed:
    /// then the interpreter does partial matching on `compiled`).
    private var partialCompiled: OpaquePointer?
    private let partialState = Atomic<Int>(0)

    public struct CompileError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        /// Byte offset in the pattern where PCRE2 gave up.
        public let offset: Int
        public var description: String { "\(message) at offset \(offset)" }
    }

    /// Whether matches can be asked to start no later than a given offset (rules use this:
    /// the matcher searches only near keyword hits, yet a match may extend past that).
    public let supportsStartLimit: Bool

    /// - Parameter deferred: compile at the first match instead of now (for patterns known
    ///   to compile, such as keyshape's own rules, which its tests compile); a pattern that
    ///   then fails makes every match a `.failure`, never a silent miss.
    public init(_ pattern: String, caseless: Bool = false, startLimit: Bool = false, deferred: Bool = false) throws {
        self.pattern = pattern
        supportsStartLimit = startLimit
        var options: UInt32 = 0
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        if startLimit { options |= UInt32(PCRE2_USE_OFFSET_LIMIT) }
        self.options = options
        if !deferred { try compile() }
    }

    /// Sets `compiled` and `groups`.
    private func compile() throws(CompileError) {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let code: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: buf.count) { ptr in
                pcre2_compile_8(ptr, buf.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let code else { throw CompileError(message: Regex.errorMessage(errorCode), offset: errorOffset) }
        var count: UInt32 = 0
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        compiled = code
        groups = Int(count)
    }

    /// Number of capture groups (group 0, the whole match, not counted); 0 for a pattern
    /// that does not compile. Compiles a deferred pattern.
    public var captureCount: Int {
        prepare()
        return groups
    }

    /// Why a deferred pattern does not compile (nil when it does). Compiles it.
    public var error: CompileError? {
        prepare()
        return compileError
    }

    /// Whether PCRE2 JIT-compiled the pattern (false where JIT is unavailable). Compiles it
    /// now if no match has done so yet.
    public var isJIT: Bool {
        prepare()
        return state.load(ordering: .acquiring) == 1
    }

    /// Compiles (when deferred) and JIT-compiles once, before the first match. Matching
    /// never overlaps compiling: every match calls this first, and it returns only once
    /// the code is final.
    @inline(__always)
    func prepare() {
        if state.load(ordering: .acquiring) != 0 { return }
        lock.withLock { _ in
            if state.load(ordering: .acquiring) != 0 { return }
            if compiled == nil {
                do throws(CompileError) { try compile() } catch {
                    compileError = error
                    state.store(3, ordering: .releasing)
                    return
                }
            }
            let ok = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
            state.store(ok ? 1 : 2, ordering: .releasing)
        }
    }

    /// The code to run with PCRE2_PARTIAL_HARD (after `prepare()`).
    private func preparePartial() -> OpaquePointer? {
        if partialState.load(ordering: .acquiring) == 1 { return partialCompiled ?? compiled }
        lock.withLock { _ in
            if partialState.load(ordering: .acquiring) == 1 { return }
            if let compiled, let copy = pcre2_code_copy_8(compiled) {
                _ = pcre2_jit_compile_8(copy, UInt32(PCRE2_JIT_PARTIAL_HARD))
                partialCompiled = copy
            }
            partialState.store(1, ordering: .releasing)
        }
        return partialCompiled ?? compiled
    }

    deinit {
        if let compiled { pcre2_code_free_8(compiled) }
        if let partialCompiled { pcre2_code_free_8(partialCompiled) }
    }

    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard n > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(n)], as: UTF8.self)
    }
}

/// Per-worker match state: match data grown to the largest pattern run with it, a match context
/// carrying the limits, and a JIT stack. Reused for every match, never shared.
public final class MatchScratch {
    private(set) var matchData: OpaquePointer
    let context: OpaquePointer
    let jitStack: OpaquePointer?
    private(set) var pairs: Int

    /// - Parameters:
    ///   - maxCaptures: room for this many groups at first; it grows for a pattern with more.
    ///   - matchLimit: PCRE2's backtracking budget per match attempt; exceeding it is an
    ///     error for that rule and input, never a hang.
    public init(maxCaptures: Int = 15, matchLimit: UInt32 = 2_000_000, depthLimit: UInt32 = 100_000) {
        pairs = maxCaptures + 1
        matchData = pcre2_match_data_create_8(UInt32(pairs), nil)
        context = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        // A larger JIT stack than the 32 KiB default, so long PEM bodies do not run out.
        jitStack = pcre2_jit_stack_create_8(64 * 1024, 4 * 1024 * 1024, nil)
        if let jitStack { pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack)) }
    }

    /// Room for a pattern's groups (patterns compiled at first use are not known up front).
    @inline(__always)
    func ensure(pairs needed: Int) {
        if needed <= pairs { return }
        pcre2_match_data_free_8(matchData)
        pairs = needed
        matchData = pcre2_match_data_create_8(UInt32(needed), nil)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(context)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }
}

/// The outcome of one match attempt.
public enum RegexMatch: Equatable {
    case noMatch
    /// Byte ranges of group 0 and each capture group (nil when a group did not take part).
    case match([Range<Int>?])
    /// PCRE2 refused to go on: match or depth limit, or another runtime error.
    case failure(code: Int32, message: String)
}

/// The outcome of a match attempt on a buffer that more input follows (`firstMatch(inCut:)`).
/// Kept apart from `RegexMatch` so code that never asks for partial matching never meets it.
public enum CutMatch: Equatable {
    case outcome(RegexMatch)
    /// A match attempt from `start` reached the end of the buffer: the bytes after it could
    /// complete or extend the match (PCRE2_PARTIAL_HARD).
    case partial(start: Int)
}

extension Regex {
    /// Finds the first match at or after `start`. Offsets are byte offsets into `buffer`.
    /// - Parameter startLimit: the match must start at or before this offset (needs a
    ///   pattern compiled with `startLimit: true`); nil for no limit.
    public func firstMatch(in buffer: UnsafeRawBufferPointer, from start: Int, startLimit: Int? = nil, scratch: MatchScratch) -> RegexMatch {
        switch attempt(buffer, from: start, startLimit: startLimit, partialAtEnd: false, scratch: scratch) {
        case .outcome(let result): return result
        case .partial: return .noMatch  // not asked for: PCRE2 never reports one
        }
    }

    /// `firstMatch` on a buffer cut short (more input follows): an attempt that reaches the
    /// end of the buffer is `.partial`, since the bytes after could complete or extend it.
    /// Attempts that never reach the end give what `firstMatch` gives.
    public func firstMatch(inCut buffer: UnsafeRawBufferPointer, from start: Int, startLimit: Int? = nil, scratch: MatchScratch) -> CutMatch {
        attempt(buffer, from: start, startLimit: startLimit, partialAtEnd: true, scratch: scratch)
    }

    private func attempt(_ buffer: UnsafeRawBufferPointer, from start: Int, startLimit: Int?, partialAtEnd: Bool,
                         scratch: MatchScratch) -> CutMatch {
        guard start <= buffer.count else { return .outcome(.noMatch) }
        prepare()
        guard let complete = compiled, state.load(ordering: .acquiring) != 3 else {
            return .outcome(.failure(code: PCRE2_ERROR_INTERNAL, message: "pattern does not compile: \(compileError?.description ?? "unknown error")"))
        }
        scratch.ensure(pairs: groups + 1)
        // The context is shared by every pattern a worker runs: always set the limit, to
        // PCRE2_UNSET (SIZE_MAX, no limit) unless this pattern asked for one, since a stale
        // limit makes PCRE2 refuse patterns compiled without PCRE2_USE_OFFSET_LIMIT.
        pcre2_set_offset_limit_8(scratch.context, supportsStartLimit ? (startLimit ?? Int(bitPattern: UInt.max)) : Int(bitPattern: UInt.max))
        let subject = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            ?? UnsafePointer<UInt8>(bitPattern: 1)!  // PCRE2 wants non-NULL even for length 0
        let code = partialAtEnd ? preparePartial() ?? complete : complete
        var rc: Int32
        if !partialAtEnd && state.load(ordering: .relaxed) == 1 {
            // JIT code, called directly: pcre2_match's checks of its arguments come to nothing
            // here (no UTF, a valid offset, options the JIT has), and this runs once per rule and
            // keyword span, 2.8 million times on the Python 3.11 tree with site-packages.
            rc = pcre2_jit_match_8(code, subject, buffer.count, start, 0, scratch.matchData, scratch.context)
            if rc == PCRE2_ERROR_JIT_BADOPTION {
                rc = pcre2_match_8(code, subject, buffer.count, start, 0, scratch.matchData, scratch.context)
            }
        } else {
            rc = pcre2_match_8(code, subject, buffer.count, start, partialAtEnd ? UInt32(PCRE2_PARTIAL_HARD) : 0,
                               scratch.matchData, scratch.context)
        }
        if rc == PCRE2_ERROR_NOMATCH { return .outcome(.noMatch) }
        let ovector = pcre2_get_ovector_pointer_8(scratch.matchData)!
        if rc == PCRE2_ERROR_PARTIAL { return .partial(start: Int(truncatingIfNeeded: ovector[0])) }
        if rc < 0 { return .outcome(.failure(code: rc, message: Regex.errorMessage(rc))) }
        let groups = self.groups + 1
        var ranges: [Range<Int>?] = []
        ranges.reserveCapacity(groups)
        for g in 0..<groups {
            // PCRE2_UNSET is SIZE_MAX, which reads as a negative Int.
            let lo = Int(truncatingIfNeeded: ovector[2 * g]), hi = Int(truncatingIfNeeded: ovector[2 * g + 1])
            if lo < 0 || hi < 0 || lo > hi { ranges.append(nil) } else { ranges.append(lo..<hi) }
        }
        return .outcome(.match(ranges))
    }

    /// Convenience for tests and `rules check`: does the pattern match anywhere in `text`?
    public func matches(_ text: String) -> Bool {
        let scratch = MatchScratch(maxCaptures: captureCount)
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buf in
            if case .match = firstMatch(in: UnsafeRawBufferPointer(buf), from: 0, scratch: scratch) { return true }
            return false
        }
    }
}
