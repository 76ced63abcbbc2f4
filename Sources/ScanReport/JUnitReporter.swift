import ScanCore

/// `--format junit`: JUnit XML for CI systems that show test results. One test suite; a
/// failing test case per finding (named by its place, the rule as its class, a `failure`
/// giving location, rule and fingerprint, never the value) and an `error` test case per
/// scan error. A clean, complete scan is one passing test case, so the suite is never empty.
///
/// XML 1.0 cannot carry most control characters even as character references, so names are
/// escaped with DisplayText first (as in text output), then XML-escaped.
public enum JUnitReporter {
    public static func report(_ result: ScanResult) -> String {
        let failures = result.findings.count, errors = result.issues.count
        let tests = max(1, failures + errors)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"keyshape\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(result.stats.seconds))\">\n"
        out += "  <testsuite name=\"keyshape\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(result.stats.seconds))\">\n"
        let e = DisplayText.escaped
        for f in result.findings {
            // TextReporter.place escapes the names it joins; the rest is escaped here, once.
            let place = TextReporter.place(f.location)
            out += "    <testcase classname=\"\(xml(e(f.rule), quotes: true))\" name=\"\(xml(place, quotes: true))\">\n"
            let message = "\(e(f.rule)) (\(e(f.description))) at \(place) [\(e(f.fingerprint))]"
            out += "      <failure type=\"\(xml(e(f.rule), quotes: true))\" message=\"\(xml(message, quotes: true))\">"
            var lines = ["location: \(place)", "rule: \(e(f.rule)) (\(e(f.description)))", "fingerprint: \(e(f.fingerprint))",
                         "secretHash: \(e(f.secretHash))"]
            if let commit = f.location.commit { lines.append("commit: \(e(commit))") }
            out += lines.map { xml($0, quotes: false) }.joined(separator: "\n")
            out += "</failure>\n    </testcase>\n"
        }
        for issue in result.issues {
            let described = e(issue.description)
            out += "    <testcase classname=\"keyshape.error\" name=\"\(xml(e(issue.path.isEmpty ? "scan" : issue.path), quotes: true))\">\n"
            out += "      <error type=\"scan-error\" message=\"\(xml(described, quotes: true))\">\(xml(described, quotes: false))</error>\n"
            out += "    </testcase>\n"
        }
        if failures + errors == 0 {
            out += "    <testcase classname=\"keyshape\" name=\"no secrets found\"/>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func seconds(_ s: Double) -> String { String((s * 1000).rounded() / 1000) }

    /// `s` is already escaped with DisplayText (every character printable: a newline in a
    /// name is `\n`); this adds XML's own escapes.
    static func xml(_ s: String, quotes: Bool) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            // Not XML 1.0 characters at all (DisplayText leaves them): the replacement character.
            case "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
