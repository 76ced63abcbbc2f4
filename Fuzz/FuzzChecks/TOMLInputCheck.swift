import MatchEngine
import TOML

/// What the TOML harness checks for one input, and what the TOML seed replay tests run on
/// every committed seed: the same code, so a seed that once crashed or misbehaved is held
/// to exactly what the fuzzer held it to.
///
/// Every input goes through the reader (raw bytes, so invalid UTF-8 is explored too), and
/// when it is UTF-8 through RuleLoader as a rules file (keyshape's schema or a gitleaks
/// config) and as a config file (`.keyshape.toml`, which a scanned repository can write).
/// What loads is then used as a scan would use it: the rules are combined, compiled (a
/// user's rules file is compiled at load, so a bad pattern is a load error), matched
/// against the input itself, their examples run as `rules check` runs them, and the
/// allowlists' path patterns asked about a path. A fuzzed pattern is bounded by the match
/// and depth limits of MatchScratch: a pathological one gives up with a failure instead of
/// hanging the run.
public enum TOMLInputCheck {
    /// What went wrong, one line each; empty when the input was handled as it must be.
    /// Never quotes the input (a config can hold secrets; these lines reach logs).
    public static func problems(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let lineCount = 1 + bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        do {
            let table = try TOMLReader.parse(bytes: bytes, file: "fuzz.toml")
            let written = TOMLWriter.write(table)
            do {
                let reread = try TOMLReader.parse(written, file: "written.toml")
                if reread != table { problems.append("an accepted document changed in a write and re-read") }
            } catch {
                problems.append("the writer's output of an accepted document does not parse: \(error)")
            }
        } catch let error as TOMLError {
            if error.file != "fuzz.toml" || !(1...lineCount).contains(error.line) || error.column < 1 || error.message.isEmpty {
                problems.append("TOMLError outside the document (\(lineCount) lines) or without a message: \(error.line):\(error.column)")
            }
        } catch {
            problems.append("TOMLReader threw something other than TOMLError")
        }

        // RuleLoader reads text; the CLI refuses files that are not UTF-8 before it.
        guard let text = String(validating: bytes, as: UTF8.self) else { return problems }
        for kind in [RuleLoader.Kind.rules, .config] {
            let file: RuleFile
            do {
                file = try RuleLoader.load(text: text, file: "fuzz.toml", kind: kind)
            } catch let error as RuleLoadError {
                if error.position.file != "fuzz.toml" || !(0...lineCount).contains(error.position.line) || error.message.isEmpty {
                    problems.append("RuleLoadError outside the document (\(lineCount) lines) or without a message: \(error.position)")
                }
                continue
            } catch {
                problems.append("RuleLoader threw something other than RuleLoadError")
                continue
            }
            // A config's rules load (the CLI decides whose they are); settings are a config's only.
            if kind == .rules && file.settings != nil { problems.append("a rules file read [scan] settings") }
            if file.rules.contains(where: \.fromRepository) { problems.append("the loader marked a rule as the tree's (the CLI's decision)") }
            problems += use(file, on: bytes, checkExamples: kind == .rules)
        }
        return problems
    }

    /// What a scan and `rules check` do with a loaded file.
    static func use(_ file: RuleFile, on bytes: [UInt8], checkExamples: Bool) -> [String] {
        var problems: [String] = []
        let (set, _) = RuleSet.combining([file])
        let matcher = Matcher(ruleSet: set, mode: .scan)
        let scratch = set.makeScratch()
        bytes.withUnsafeBytes { buffer in
            // What the scan pipeline does: a mask from the rules' paths, the matcher, then the
            // pending checks settled at the place.
            let place = (path: "src/fuzz.env", commit: "0123456789abcdef")
            let mask = RuleMask(undecided: RuleMask.Undecided(set.rules.map(\.appliesConditionally))) { set.rules[$0].path?.test(place.path, scratch: scratch) != .no }
            matcher.scan(buffer, mask: mask, onMatch: { m in
                if let pending = m.pending {
                    _ = set.settle(pending, ruleIndex: m.ruleIndex, path: place.path, commit: place.commit, scratch: scratch, onFailure: { _ in })
                }
                if m.secret.lowerBound < 0 || m.secret.upperBound > buffer.count || m.match.lowerBound < 0 || m.match.upperBound > buffer.count {
                    problems.append("a match outside the buffer")
                }
                if !set.rules.indices.contains(m.ruleIndex) { problems.append("a match for no rule") }
            }, onFailure: { f in
                if !set.rules.indices.contains(f.ruleIndex) || f.message.isEmpty { problems.append("a rule failure for no rule or without a message") }
            })
        }
        _ = set.allowsWholeFile("src/fuzz.env", scratch: set.makeScratch())
        if checkExamples { _ = RuleChecker.check(files: [file], requireExamples: true) }
        return problems
    }
}
