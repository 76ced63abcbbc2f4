#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScanCore

/// A rule that fired: which rule, and where the secret and the whole match are, as byte
/// ranges of the buffer. The engine's whole output; it holds no copy of the bytes.
public struct RuleMatch: Sendable, Hashable {
    public var ruleIndex: Int
    public var secret: Range<Int>
    public var match: Range<Int>
    /// A global allowlist (the config file's, or a rule file's top-level ones) allows it: only
    /// reported when the matcher's mode asks (`MatchMode.scan`), so the scanner can count
    /// it. A rule's own allowlists are part of its definition, like its entropy minimum, and
    /// held to its examples by `rules check`: what they drop is no finding. (The builtin
    /// generic rules drop every `password = "changeme"` that way; counting those would bury
    /// the suppressions a config asked for.)
    public var allowlisted = false
    /// From a matcher whose mode defers (`MatchMode.scan`): what the filter stage after it
    /// still checks (`DeferredChecks`); nil when the bytes decided.
    public var pending: DeferredChecks? = nil
    /// The rule's checksum on the secret: nil when it has none (or the value lacks its shape).
    public var checksum: Bool? = nil
    /// The structural pass's confidence for this match (`NamedCredentialPass`), which the
    /// finding takes instead of the rule's; nil for a regex rule.
    public var confidence: Confidence? = nil
    /// The provider the credential's name named: an index into the pass's `providers`, whose
    /// entry the finding's description names; nil for none.
    public var provider: Int? = nil
}

/// A rule that could not finish on a buffer (match or depth limit): the scan goes on and
/// reports it, so a catastrophic pattern costs a bounded time and never a silent miss.
public struct RuleFailure: Sendable, Hashable {
    /// What gave up. For `ruleCondition` (a rule's own condition, checked by the filter stage)
    /// the rule then runs as if the condition held, and for `allowlist` the finding is
    /// reported as if no allowlist allowed it: a pattern that cannot answer never switches a
    /// rule off or hides a finding (fail closed).
    public enum Stage: Sendable, Hashable { case rule, ruleCondition, allowlist }
    public var ruleIndex: Int
    public var message: String
    public var stage: Stage = .rule

    public init(ruleIndex: Int, message: String, stage: Stage = .rule) {
        self.ruleIndex = ruleIndex
        self.message = message
        self.stage = stage
    }
}

/// Turns one buffer into matches. One per worker thread: it owns the PCRE2 match data and
/// the keyword bookkeeping, which are reused for every buffer.
///
/// Rules run only near their keywords: one pass finds every keyword occurrence, and a
/// rule's regex is tried only at start positions on the keyword's line, from at most
/// `lookBehind` bytes before the keyword to at most `lookAhead` bytes after it. The match
/// itself may run on past that, across lines (PCRE2's offset limit bounds where a match
/// starts, not where it ends), so a PEM block starting at its keyword is found whole.
/// Gitleaks-style patterns that begin with an optional identifier prefix would otherwise
/// try a match at every byte of every buffer that mentions "key" or "token".
public final class Matcher {
    public let ruleSet: RuleSet
    /// What the caller does with the matches (see the presets of `MatchMode`).
    public let mode: MatchMode
    let scratch: MatchScratch

    /// Which rules a scan runs. A rule set with rules from the scanned tree
    /// (`RuleSet.hasRepositoryRules`) is matched in two passes over each buffer: `trusted`
    /// first, recording every span a trusted rule's pattern matched (`trustedSpans`, kept
    /// whatever entropy, placeholder or allowlist then decide), then `repository` over a copy
    /// with those spans blanked (`BufferScanner`). So a tree's rules never see a value a trusted
    /// rule saw, and no set of them can spell one out through which rules fire, how many
    /// times or where (216 rules each testing one bit of one character did, before).
    public enum RulePass: Sendable { case all, trusted, repository }

    /// After a `trusted` pass: the whole match of every trusted rule's pattern, in the order
    /// found (not sorted, may overlap).
    public private(set) var trustedSpans: [Range<Int>] = []

    private var sparseScratch = KeywordIndex.SparseScratch()
    public static let lookBehind = 512
    public static let lookAhead = 256
    /// How far the line an allowlist reads (`regexTarget = "line"`) reaches either side of
    /// the match: the match's line, cut to `allowlistLineReach` bytes before the match's start
    /// and after its end. Whole, a long line was read by every line allowlist at every match on
    /// it: one 100 KB line of 2,083 matches of one generic rule took 2.2 s of CPU (0.09 s
    /// without its line allowlist), a 1 MB one 16 s a MB; and one `test_key =` anywhere on a
    /// minified megabyte dropped every generic match on it. Lines of source are shorter; the
    /// builtin pack's line allowlists look at the name before the value.
    public static let allowlistLineReach = 512

    /// The hits of the buffer being scanned and their candidate start windows, one UInt64
    /// each so sorting is cheap: rule (20 bits), window start (32 bits), window length (12
    /// bits; windows are at most lookBehind + lookAhead plus a keyword long). Sorted, they
    /// group by rule and ascend by start.
    private var collector: HitWindows
    /// Each named-credential rule's names already scored, by rule index (`CredentialNameMemo`).
    private var nameMemos: [Int: CredentialNameMemo] = [:]

    /// Every keyword occurrence of the last buffer scanned, `keyword << 40 | end`: a later
    /// buffer that shares most of its bytes with this one can take them as a `HitReference`.
    public var hits: [UInt64] { collector.hits }

    /// After a scan with `continues`: each rule whose match attempt reached the end of the
    /// buffer from a start inside `accept` (PCRE2 partial match), and that start. Such a
    /// match may be longer than the buffer's overlap with the next one: the caller reads
    /// again from there, or reports that the rule could not finish.
    public private(set) var cutShort: [(ruleIndex: Int, start: Int)] = []

    /// The line an allowlist last read (`AllowlistSubject.line`), kept while matches stay on
    /// it; a new one at each scan (a buffer may be reused for other bytes).
    private var allowlistLines = LineCache()

    public init(ruleSet: RuleSet, mode: MatchMode = .standalone) {
        self.ruleSet = ruleSet
        self.mode = mode
        scratch = MatchScratch()
        collector = HitWindows(set: ruleSet)
    }

    /// Scans `buffer`. `accept` limits which match starts are reported (used when a large
    /// input is scanned in overlapping chunks, so each match is reported by one chunk).
    /// - Parameters:
    ///   - reference: an earlier buffer (another version of the same file) and its `hits`:
    ///     keyword occurrences in the bytes both share at the start and at the end are taken
    ///     from it, and only the part between is searched (see `HitReference`).
    ///   - continues: more input follows the buffer (a chunk of a larger file): matches
    ///     that may run on past its end are collected in `cutShort` instead of being cut.
    ///   - mask: which rules run on this input (nil: all), from the filter stage before the
    ///     matcher (see `RuleMask`).
    ///   - pass: which rules run (see `RulePass`).
    ///   - sparseFiller: a byte the buffer is mostly made of and no keyword holds (a
    ///     binary's printable-run mask is newlines outside the runs): the keyword pass then
    ///     runs over the stretches between (`KeywordIndex.forEachHit(_:sparse:)`).
    public func scan(_ buffer: UnsafeRawBufferPointer, mask: RuleMask? = nil, pass: RulePass = .all, sparseFiller: UInt8? = nil,
                     accept: Range<Int>? = nil, reference: HitReference? = nil, continues: Bool = false,
                     onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        allowlistLines = LineCache()
        // gitleaks' composite rules and generic rules yielding to provider rules: decided once
        // every rule has run on the buffer.
        let yields = mode.genericsYield && ruleSet.mixesGenericAndProvider
        let namedYield = mode.genericsYield && ruleSet.hasNamedCredentials
        guard ruleSet.composites != nil || yields || namedYield else {
            scanRules(buffer, mask: mask, pass: pass, sparseFiller: sparseFiller, accept: accept, reference: reference,
                      continues: continues, onMatch: onMatch, onFailure: onFailure)
            return
        }
        var collected: [RuleMatch] = []
        scanRules(buffer, mask: mask, pass: pass, sparseFiller: sparseFiller, accept: accept, reference: reference, continues: continues,
                  onMatch: { collected.append($0) }, onFailure: onFailure)
        if let composites = ruleSet.composites { collected = composites.resolve(collected, in: buffer) }
        if yields { GenericYield.apply(&collected, isGeneric: ruleSet.isGeneric) }
        if namedYield { NamedYield.apply(&collected, isNamed: ruleSet.isNamedCredentials) }
        for m in collected { onMatch(m) }
    }

    private func scanRules(_ buffer: UnsafeRawBufferPointer, mask: RuleMask?, pass: RulePass, sparseFiller: UInt8?, accept: Range<Int>?,
                           reference: HitReference?, continues: Bool,
                           onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        let set = ruleSet
        cutShort.removeAll(keepingCapacity: true)
        trustedSpans.removeAll(keepingCapacity: true)
        let n = buffer.count
        collector.begin(buffer)
        // Through a pointer: one exclusivity check for the pass, not one per access of a hit.
        withUnsafeMutablePointer(to: &collector) { c in
            if let reference, n < 1 << 40 {
                reference.forEachHit(in: buffer, index: set.keywordIndex) { c.pointee.add(keyword: $0, end: $1) }
            } else if let filler = sparseFiller {
                set.keywordIndex.forEachHit(buffer, sparse: filler, scratch: &sparseScratch) { c.pointee.add(keyword: $0, end: $1) }
            } else {
                set.keywordIndex.forEachHit(buffer) { c.pointee.add(keyword: $0, end: $1) }
            }
        }
        if collector.windows.isEmpty && set.unconditionalRules.isEmpty { return }
        collector.windows.sort()
        let windows = collector.windows, span = collector.span
        var spans: [Range<Int>] = []
        var i = 0
        while i < windows.count {
            let rule = Int(windows[i] >> 44)
            spans.removeAll(keepingCapacity: true)
            var current = span(windows[i])
            i += 1
            while i < windows.count && Int(windows[i] >> 44) == rule {
                let next = span(windows[i])
                if next.lowerBound <= current.upperBound {
                    current = current.lowerBound..<max(current.upperBound, next.upperBound)
                } else {
                    spans.append(current)
                    current = next
                }
                i += 1
            }
            spans.append(current)
            if pass != .all && !runs(rule, in: pass) { continue }
            if let mask, !mask.runs(rule) { continue }
            run(ruleIndex: rule, spans: spans, buffer: buffer, pass: pass, accept: accept, continues: continues,
                onMatch: onMatch, onFailure: onFailure)
        }
        for r in set.unconditionalRules where (pass == .all || runs(r, in: pass)) && mask?.runs(r) != false {
            run(ruleIndex: r, spans: [0..<n], buffer: buffer, pass: pass, accept: accept, continues: continues,
                onMatch: onMatch, onFailure: onFailure)
        }
    }

    private func runs(_ ruleIndex: Int, in pass: RulePass) -> Bool {
        switch pass {
        case .all: return true
        case .trusted: return !ruleSet.fromRepository[ruleIndex]
        case .repository: return ruleSet.fromRepository[ruleIndex]
        }
    }

    private func run(ruleIndex: Int, spans: [Range<Int>], buffer: UnsafeRawBufferPointer, pass: RulePass, accept: Range<Int>?,
                     continues: Bool, onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        // The rule's regex only, not the whole `Rule`: a copy of it retains and releases each of its
        // two dozen fields, and this runs once per rule and buffer with a keyword hit (273,000 times
        // on the Python 3.11 tree with site-packages), 1.4% of the folder scan's CPU (perf, dwarf).
        // The rule itself is read at a match, which is rare.
        if ruleSet.isNamedCredentials[ruleIndex] {
            let rule = ruleSet.rules[ruleIndex]
            runNamed(rule.namedCredentials!, rule: rule, ruleIndex: ruleIndex, spans: spans, buffer: buffer, pass: pass, accept: accept,
                     onMatch: onMatch, onFailure: onFailure)
            return
        }
        let regex = ruleSet.rules[ruleIndex].regex
        let acceptEnd = accept?.upperBound ?? buffer.count
        var lastEnd = 0
        for span in spans {
            // Matches never overlap: a span starting inside the previous match starts after it.
            var start = max(span.lowerBound, lastEnd)
            while start <= span.upperBound && start < acceptEnd {
                let outcome: RegexMatch
                if continues {
                    switch regex.firstMatch(inCut: buffer, from: start, startLimit: span.upperBound, scratch: scratch) {
                    case .outcome(let result):
                        outcome = result
                    case .partial(let at):
                        // Every later attempt of this rule starts after `at`: a read from
                        // `at` on answers for them too (one starting in the overlap is the
                        // next chunk's anyway).
                        if at < acceptEnd && (accept.map { at >= $0.lowerBound } ?? true) { cutShort.append((ruleIndex, at)) }
                        return
                    }
                } else {
                    outcome = regex.firstMatch(in: buffer, from: start, startLimit: span.upperBound, scratch: scratch)
                }
                switch outcome {
                case .noMatch:
                    start = span.upperBound + 1
                case .failure(_, let message):
                    onFailure(RuleFailure(ruleIndex: ruleIndex, message: message))
                    return
                case .match(let groups):
                    guard let whole = groups[0] else { return }
                    if pass == .trusted { trustedSpans.append(whole) }
                    start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
                    lastEnd = start
                    if whole.lowerBound >= acceptEnd { return }
                    if let accept, !accept.contains(whole.lowerBound) { continue }
                    let rule = ruleSet.rules[ruleIndex]
                    guard let secret = secretRange(rule, groups), !secret.isEmpty else { continue }
                    let checksum = { rule.checksum?.holds(UnsafeRawBufferPointer(rebasing: buffer[secret])) }
                    var pending: DeferredChecks?
                    let decided = verdict(rule, ruleIndex: ruleIndex, secret: secret, match: whole, buffer: buffer,
                                          pending: &pending, onFailure: onFailure)
                    if mode.defers && rule.appliesConditionally && decided != .drop {
                        if pending == nil { pending = DeferredChecks(otherwise: decided == .allowlisted ? .allowlisted : .report) }
                        pending!.ruleCondition = true
                    }
                    if let pending {
                        // Settled by the scanner (what these checks allow may be dropped there).
                        onMatch(RuleMatch(ruleIndex: ruleIndex, secret: secret, match: whole, pending: pending, checksum: checksum()))
                        continue
                    }
                    switch decided {
                    case .drop: continue
                    case .allowlisted:
                        if mode.reportsAllowlisted { onMatch(RuleMatch(ruleIndex: ruleIndex, secret: secret, match: whole, allowlisted: true, checksum: checksum())) }
                    case .report:
                        onMatch(RuleMatch(ruleIndex: ruleIndex, secret: secret, match: whole, checksum: checksum()))
                    }
                }
            }
        }
    }

    /// The structural pass in place of a regex: each pair it reads goes through the same
    /// placeholder filter, allowlists and deferred checks as a regex rule's match.
    private func runNamed(_ named: NamedCredentialPass, rule: Rule, ruleIndex: Int, spans: [Range<Int>], buffer: UnsafeRawBufferPointer,
                          pass: RulePass, accept: Range<Int>?, onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        let acceptEnd = accept?.upperBound ?? buffer.count
        var all: [NamedCredentialPass.Found] = []
        let memo = nameMemos[ruleIndex] ?? CredentialNameMemo()
        nameMemos[ruleIndex] = memo
        named.scan(buffer, spans: spans, memo: memo, into: &all)
        for found in all {
            if pass == .trusted { trustedSpans.append(found.match) }
            if found.match.lowerBound >= acceptEnd { continue }
            if let accept, !accept.contains(found.match.lowerBound) { continue }
            var pending: DeferredChecks?
            let decided = verdict(rule, ruleIndex: ruleIndex, secret: found.secret, match: found.match, buffer: buffer,
                                  pending: &pending, onFailure: onFailure)
            if mode.defers && rule.appliesConditionally && decided != .drop {
                if pending == nil { pending = DeferredChecks(otherwise: decided == .allowlisted ? .allowlisted : .report) }
                pending!.ruleCondition = true
            }
            var m = RuleMatch(ruleIndex: ruleIndex, secret: found.secret, match: found.match)
            m.confidence = found.confidence
            m.provider = found.provider
            if let pending {
                m.pending = pending
                onMatch(m)
                continue
            }
            switch decided {
            case .drop: continue
            case .allowlisted:
                if mode.reportsAllowlisted { m.allowlisted = true; onMatch(m) }
            case .report: onMatch(m)
            }
        }
    }

    private func secretRange(_ rule: Rule, _ groups: [Range<Int>?]) -> Range<Int>? {
        if let g = rule.secretGroup { return g < groups.count ? groups[g] : nil }
        if groups.count > 1 {
            for g in groups.dropFirst() { if let g, !g.isEmpty { return g } }
            return nil
        }
        return groups[0]
    }

    private enum Verdict { case report, drop, allowlisted }

    /// Entropy and the placeholder filter first (no secret at all), then the rule's allowlists
    /// (dropped: no finding) and the global ones (allowlisted: a suppressed finding). An
    /// allowlist whose pattern gives up makes the finding reported, whatever a later
    /// allowlist would say, and is handed to `onFailure`.
    ///
    /// An allowlist not `decidedByBytes` gets only its byte checks here. With `mode.defers` it
    /// goes into `pending` for the filter stage, and the verdict returned is the one for when
    /// none of the pending allowlists allows; without, its other conditions count as unmet.
    private func verdict(_ rule: Rule, ruleIndex: Int, secret: Range<Int>, match: Range<Int>, buffer: UnsafeRawBufferPointer,
                         pending: inout DeferredChecks?, onFailure: (RuleFailure) -> Void) -> Verdict {
        let secretBytes = UnsafeRawBufferPointer(rebasing: buffer[secret])
        // Strictly greater passes, as gitleaks means `entropy`: a value exactly at the
        // threshold is dropped (passing it gave 254 extra findings on one 1 GB corpus
        // scanned with gitleaks' config).
        if let gate = rule.entropyGate(for: secretBytes), Entropy.shannon(secretBytes) <= gate { return .drop }
        // A stand-in value (`ghp_xxxx…`, `${TOKEN}`, AKIAIOSFODNN7EXAMPLE) is no secret, for
        // every rule: no finding, not counted (see Placeholder).
        if mode.dropsPlaceholders && Placeholder.isPlaceholder(secretBytes, prefixes: rule.keywords) { return .drop }
        // A piece of a provider's documentation value (its docs' password, read up to a
        // decoded `@`) is one too.
        if mode.dropsPlaceholders && Placeholder.documentationValue(in: buffer.bindMemory(to: UInt8.self), overlapping: secret) { return .drop }
        // A generic match under a provider's name whose value has none of the provider's
        // documented shapes: not that provider's credential (see ProviderShapes).
        if rule.isGeneric && !ruleSet.providerShapes.isEmpty
            && ruleSet.providerShapes.contradicts(buffer, secret: secret, match: match, scratch: scratch) { return .drop }
        let hasRuleLists = !rule.allowlists.isEmpty
        let globals = ruleSet.allowlists
        if !hasRuleLists && globals.isEmpty { return .report }
        let subject = AllowlistSubject(
            secret: secretBytes,
            match: UnsafeRawBufferPointer(rebasing: buffer[match]),
            line: UnsafeRawBufferPointer(rebasing: buffer[Matcher.allowlistLine(allowlistLines.line(containing: match.lowerBound, in: buffer).range,
                                                                                around: match)]))
        func check(_ a: Allowlist, allowed: Verdict, index: Int) -> Verdict? {
            if !a.decidedByBytes {
                switch a.byteChecks(subject, scratch: scratch) {
                case .success(let bytes):
                    guard mode.defers else { return a.verdictWithOthersUnmet(bytePasses: bytes.passes) ? allowed : nil }
                    if pending == nil { pending = DeferredChecks() }
                    pending!.entries.append(.init(isRuleList: allowed == .drop, index: index, byteChecks: bytes.checks, bytePasses: bytes.passes))
                    return nil
                case .failure(let failure):
                    onFailure(RuleFailure(ruleIndex: ruleIndex, message: failure.message, stage: .allowlist))
                    return .report
                }
            }
            switch a.byteVerdict(subject, scratch: scratch) {
            case .allows: return allowed
            case .doesNotAllow: return nil
            case .failed(let message):
                onFailure(RuleFailure(ruleIndex: ruleIndex, message: message, stage: .allowlist))
                return .report
            }
        }
        for (i, a) in rule.allowlists.enumerated() { if let v = check(a, allowed: .drop, index: i) { return settled(v) } }
        for (i, a) in globals.enumerated() where (a.targetRules.isEmpty || a.targetRules.contains(rule.id)) && a.mayJudge(rule) {
            if let v = check(a, allowed: .allowlisted, index: i) { return settled(v) }
        }
        return settled(.report)
        // What the pending allowlists fall back to.
        func settled(_ v: Verdict) -> Verdict {
            if pending != nil { pending!.otherwise = v == .drop ? .drop : v == .allowlisted ? .allowlisted : .report }
            return v
        }
    }

    /// The part of `line` (the match's first line) an allowlist reads: at most
    /// `allowlistLineReach` bytes before the match's start and after its end.
    static func allowlistLine(_ line: Range<Int>, around match: Range<Int>) -> Range<Int> {
        let lo = max(line.lowerBound, min(match.lowerBound, line.upperBound) - allowlistLineReach)
        let hi = min(line.upperBound, match.upperBound + allowlistLineReach)
        return lo..<max(lo, hi)
    }

    /// The line around `offset`, without its line terminator.
    public static func lineRange(containing offset: Int, in buffer: UnsafeRawBufferPointer) -> Range<Int> {
        lineBounds(containing: offset, in: buffer).range
    }

    /// The line around `offset` without its terminator, and where its newline is (the
    /// buffer's end for the last line): every offset from the line's start to `newline` lies
    /// on it (`LineCache`).
    static func lineBounds(containing offset: Int, in buffer: UnsafeRawBufferPointer) -> (range: Range<Int>, newline: Int) {
        var lo = min(offset, buffer.count)
        while lo > 0 && buffer[lo - 1] != 0x0A { lo -= 1 }
        var hi = min(offset, buffer.count)
        while hi < buffer.count && buffer[hi] != 0x0A { hi += 1 }
        var trimmed = hi
        if trimmed > lo && buffer[trimmed - 1] == 0x0D { trimmed -= 1 }
        return (lo..<trimmed, hi)
    }
}
