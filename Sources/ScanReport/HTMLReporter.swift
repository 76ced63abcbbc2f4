import ScanCore

/// `--format html`: one self-contained page an auditor opens in a browser. A summary with
/// charts (findings by rule, by repository, introductions over time by commit date, as
/// inline SVG), a table that sorts by any column and filters as one types, and a section
/// per secret (one `secretHash`) listing its places.
///
/// Self-contained: inline CSS and script, no fetch of any kind, and a Content-Security-Policy
/// that forbids them, so opening the page tells nobody it was opened.
///
/// Everything from inputs (paths, rule ids and descriptions, repository names, notes) is
/// first made printable by DisplayText.escaped and then HTML-escaped, in text and in
/// attributes alike. The script holds no data: it reads the table the page already shows,
/// so no input ever lands inside script text.
///
/// The page understands a URL fragment, so a link (or a test) can open it filtered or sorted:
/// `#filter=TEXT`, `#status=open`, `#sort=COLUMN`. After it has applied them it writes the
/// number of rows shown into `#visible-count` and sets `data-ready` on the body.
public enum HTMLReporter {
    public static func report(_ result: ScanResult, context: [FindingContext] = [], title: String = "keyshape report") -> String {
        let rows = result.findings.enumerated().map { n, f in (f, context.indices.contains(n) ? context[n] : FindingContext()) }
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(h(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header><h1>\(h(title))</h1><p class="tool">keyshape \(h(KeyshapeVersion.current)): where secrets are, never what they are.</p></header>

        """
        page += summary(result, rows)
        page += table(rows)
        page += groups(rows)
        page += errors(result.issues)
        page += "<script>\(script)</script>\n</body>\n</html>\n"
        return page
    }

    // MARK: Sections

    static func summary(_ result: ScanResult, _ rows: [(Finding, FindingContext)]) -> String {
        let secrets = Set(rows.map { $0.0.secretHash }).count
        let repositories = Set(rows.compactMap { $0.1.repository }).count
        let open = rows.filter { ($0.1.status ?? "open") == "open" }.count
        var s = "<section id=\"summary\">\n<h2>Summary</h2>\n<p class=\"totals\">"
        s += "<span id=\"total-findings\">\(rows.count)</span> findings (<span id=\"total-open\">\(open)</span> open), "
        s += "<span id=\"total-secrets\">\(secrets)</span> distinct secret\(secrets == 1 ? "" : "s")"
        if repositories > 0 { s += ", <span id=\"total-repositories\">\(repositories)</span> repositor\(repositories == 1 ? "y" : "ies")" }
        s += ", <span id=\"total-errors\">\(result.issues.count)</span> errors</p>\n<div class=\"charts\">\n"
        s += barChart(id: "chart-rules", title: "Findings by rule", counts(rows.map { $0.0.rule }))
        if repositories > 0 { s += barChart(id: "chart-repositories", title: "Findings by repository", counts(rows.compactMap { $0.1.repository })) }
        // Introductions: a finding in history is the commit that added the secret; by month.
        let months = rows.compactMap { r -> String? in
            guard r.0.location.kind == .commit, let date = r.0.location.date, date.utf8.count >= 7 else { return nil }
            let month = String(date.prefix(7))
            return month.allSatisfy { $0.isNumber || $0 == "-" } ? month : nil
        }
        s += timeline(id: "chart-introductions", title: "Introductions by commit month", months)
        s += "</div>\n</section>\n"
        return s
    }

    static func table(_ rows: [(Finding, FindingContext)]) -> String {
        let hasRepositories = rows.contains { $0.1.repository != nil }
        let hasStatus = rows.contains { $0.1.status != nil }
        var s = """
        <section id="findings">
        <h2>Findings</h2>
        <p class="controls"><label>Filter <input id="filter" type="search" placeholder="path, rule, repository, note..." autocomplete="off"></label>
        <label>Status <select id="status-filter"><option value="">any</option>\(TriageWords.all.map { "<option value=\"\($0)\">\($0)</option>" }.joined())</select></label>
        <span><span id="visible-count">\(rows.count)</span> of \(rows.count) shown</span></p>
        <table id="findings-table">
        <thead><tr>
        """
        var columns: [(key: String, title: String)] = []
        if hasRepositories { columns.append(("repository", "Repository")) }
        columns += [("location", "Location"), ("rule", "Rule"), ("description", "Description"), ("commit", "Commit"),
                    ("date", "Date"), ("secret", "Secret"), ("fingerprint", "Fingerprint")]
        if hasStatus { columns += [("status", "Status"), ("note", "Note")] }
        for c in columns { s += "<th data-key=\"\(c.key)\" tabindex=\"0\">\(c.title)</th>" }
        s += "</tr></thead>\n<tbody>\n"
        for (f, c) in rows {
            let l = f.location
            let status = c.status ?? "open"
            var cells: [String: String] = [
                "location": h(printable: TextReporter.place(l)), "rule": h(f.rule), "description": h(f.description),
                "commit": h(String((l.commit ?? "").prefix(12))), "date": h(l.date ?? ""),
                "secret": "<a href=\"#secret-\(h(f.secretHash))\">\(h(f.secretHash))</a>", "fingerprint": h(f.fingerprint),
                "status": h(status), "note": h(c.note ?? ""),
            ]
            cells["repository"] = h(c.repository ?? "")
            s += "<tr class=\"finding\" data-rule=\"\(h(f.rule))\" data-status=\"\(h(status))\" data-secret=\"\(h(f.secretHash))\">"
            for col in columns { s += "<td class=\"\(col.key)\">\(cells[col.key] ?? "")</td>" }
            s += "</tr>\n"
        }
        s += "</tbody>\n</table>\n</section>\n"
        return s
    }

    static func groups(_ rows: [(Finding, FindingContext)]) -> String {
        var byHash: [String: [(Finding, FindingContext)]] = [:]
        for r in rows { byHash[r.0.secretHash, default: []].append(r) }
        let ordered = byHash.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        var s = "<section id=\"secrets\">\n<h2>By secret</h2>\n"
        for (hash, places) in ordered {
            let repositories = Set(places.compactMap { $0.1.repository })
            let dates = places.compactMap { $0.0.location.kind == .commit ? $0.0.location.date : nil }
            let rules = Set(places.map { $0.0.rule }).sorted()
            s += "<section class=\"secret-group\" id=\"secret-\(h(hash))\" data-places=\"\(places.count)\">\n"
            s += "<h3>Secret \(h(hash))</h3>\n<p>\(rules.map { h($0) }.joined(separator: ", ")): one key, \(places.count) place\(places.count == 1 ? "" : "s")"
            if !repositories.isEmpty { s += " in \(repositories.count) repositor\(repositories.count == 1 ? "y" : "ies")" }
            if let first = dates.min() { s += ", first committed \(h(first))" }
            s += "</p>\n<ul>\n"
            for (f, c) in places {
                s += "<li>"
                if let r = c.repository { s += "<span class=\"repository\">\(h(r))</span> " }
                s += "<code>\(h(printable: TextReporter.place(f.location)))</code> [\(h(f.fingerprint))]"
                if let status = c.status { s += " <span class=\"status\">\(h(status))</span>" }
                s += "</li>\n"
            }
            s += "</ul>\n</section>\n"
        }
        s += "</section>\n"
        return s
    }

    static func errors(_ issues: [ScanIssue]) -> String {
        guard !issues.isEmpty else { return "" }
        var s = "<section id=\"errors\">\n<h2>Errors</h2>\n<p>What these name was not (fully) scanned.</p>\n<ul>\n"
        for issue in issues { s += "<li><code>\(h(issue.path))</code>: \(h(issue.message))</li>\n" }
        return s + "</ul>\n</section>\n"
    }

    // MARK: Charts

    static func counts(_ keys: [String]) -> [(String, Int)] {
        var c: [String: Int] = [:]
        for k in keys { c[k, default: 0] += 1 }
        return c.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
    }

    /// Horizontal bars, the 20 largest (the rest summed into one bar).
    static func barChart(id: String, title: String, _ counts: [(String, Int)]) -> String {
        var shown = Array(counts.prefix(20))
        if counts.count > 20 { shown.append(("\(counts.count - 20) others", counts.dropFirst(20).reduce(0) { $0 + $1.1 })) }
        let most = max(1, shown.map(\.1).max() ?? 1)
        let rowHeight = 22, labelWidth = 260, barWidth = 320
        let height = max(1, shown.count) * rowHeight + 8
        var s = "<figure class=\"chart\" id=\"\(id)\"><figcaption>\(h(title))</figcaption>"
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(labelWidth + barWidth + 60)\" height=\"\(height)\" role=\"img\">"
        for (n, (label, count)) in shown.enumerated() {
            let y = 4 + n * rowHeight
            let width = max(2, count * barWidth / most)
            s += "<g class=\"bar\" data-count=\"\(count)\"><text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">\(h(clip(label)))</text>"
            s += "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(width)\" height=\"\(rowHeight - 6)\"></rect>"
            s += "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(count)</text></g>"
        }
        return s + "</svg></figure>\n"
    }

    /// Vertical bars, one per month from the first introduction to the last.
    static func timeline(id: String, title: String, _ months: [String]) -> String {
        var s = "<figure class=\"chart\" id=\"\(id)\"><figcaption>\(h(title))</figcaption>"
        guard let first = months.min(), let last = months.max() else {
            return s + "<p class=\"empty\">No commit dates (no history was scanned).</p></figure>\n"
        }
        var c: [String: Int] = [:]
        for m in months { c[m, default: 0] += 1 }
        var all: [String] = []
        var (year, month) = (Int(first.prefix(4)) ?? 0, Int(first.suffix(2)) ?? 1)
        // At most 50 years of months: a hostile date cannot make the page unbounded.
        while all.count < 600 {
            let key = String(format4(year)) + "-" + (month < 10 ? "0" : "") + String(month)
            all.append(key)
            if key >= last { break }
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        let most = max(1, c.values.max() ?? 1)
        let barWidth = max(3, min(24, 720 / all.count)), height = 160
        let width = max(240, all.count * barWidth + 20)
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height + 30)\" role=\"img\">"
        for (n, key) in all.enumerated() {
            let count = c[key] ?? 0
            let barHeight = count * height / most
            s += "<g class=\"bar\" data-month=\"\(h(key))\" data-count=\"\(count)\"><title>\(h(key)): \(count)</title>"
            s += "<rect x=\"\(10 + n * barWidth)\" y=\"\(height - barHeight)\" width=\"\(barWidth - 1)\" height=\"\(barHeight)\"></rect></g>"
        }
        s += "<text x=\"10\" y=\"\(height + 20)\">\(h(all.first ?? ""))</text>"
        if all.count > 1 { s += "<text x=\"\(width - 10)\" y=\"\(height + 20)\" text-anchor=\"end\">\(h(all.last ?? ""))</text>" }
        return s + "</svg></figure>\n"
    }

    static func format4(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func clip(_ text: String) -> String { text.count > 40 ? String(text.prefix(39)) + "…" : text }

    // MARK: Escaping

    /// Printable first (controls and bidirectional overrides as visible escapes), then safe
    /// in HTML text and in quoted attributes.
    static func h(_ text: String) -> String { h(printable: DisplayText.escaped(text)) }

    /// Text already made printable (a place from `TextReporter.place`, which escapes the names
    /// it joins), made safe in HTML only: escaped twice, a zero-width space in a name showed
    /// as `\\u{200b}` and a newline as `\\n`.
    static func h(printable text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    enum TriageWords { static let all = ["open", "accepted", "false-positive", "revoked", "fixed"] }

    // MARK: Style and script (no data in either)

    static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1d1d1f;background:#fff}
    h1{margin:0}.tool{color:#666;margin-top:.2em}
    .charts{display:flex;flex-wrap:wrap;gap:1.5em}.chart{margin:0}.chart figcaption{font-weight:600;margin-bottom:.3em}
    .chart rect{fill:#c0392b}.chart text{font-size:12px;fill:#333}.empty{color:#666}
    table{border-collapse:collapse;width:100%;margin-top:.5em}th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
    th{cursor:pointer;background:#f4f4f6;position:sticky;top:0}th[data-order="asc"]::after{content:" \\25B2"}th[data-order="desc"]::after{content:" \\25BC"}
    td.location,td.fingerprint,td.secret,td.commit,code{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
    tr.hidden{display:none}.controls label{margin-right:1em}.secret-group{border-top:1px solid #eee;padding-top:.3em}
    .status{font-size:12px;padding:0 .4em;border-radius:3px;background:#eee}
    """

    static let script = """
    (function(){
    var table=document.getElementById('findings-table');
    var body=table.tBodies[0];
    var rows=Array.prototype.slice.call(body.rows);
    var filter=document.getElementById('filter');
    var status=document.getElementById('status-filter');
    var count=document.getElementById('visible-count');
    function apply(){
      var words=filter.value.toLowerCase().split(/\\s+/).filter(function(w){return w.length>0;});
      var wanted=status.value;var shown=0;
      rows.forEach(function(r){
        var text=r.textContent.toLowerCase();
        var ok=words.every(function(w){return text.indexOf(w)>=0;})&&(!wanted||r.getAttribute('data-status')===wanted);
        r.classList.toggle('hidden',!ok);if(ok){shown++;}
      });
      count.textContent=String(shown);
    }
    function sortBy(th){
      var index=Array.prototype.indexOf.call(th.parentNode.children,th);
      var order=th.getAttribute('data-order')==='asc'?'desc':'asc';
      Array.prototype.forEach.call(th.parentNode.children,function(o){o.removeAttribute('data-order');});
      th.setAttribute('data-order',order);
      rows.sort(function(a,b){
        var x=a.cells[index].textContent,y=b.cells[index].textContent;
        var c=x.localeCompare(y,undefined,{numeric:true});return order==='asc'?c:-c;
      });
      rows.forEach(function(r){body.appendChild(r);});
    }
    Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th){
      th.addEventListener('click',function(){sortBy(th);});
      th.addEventListener('keydown',function(e){if(e.key==='Enter'){sortBy(th);}});
    });
    filter.addEventListener('input',apply);status.addEventListener('change',apply);
    var hash=location.hash.replace(/^#/,'');
    hash.split('&').forEach(function(part){
      var eq=part.indexOf('=');if(eq<0){return;}
      var key=part.slice(0,eq),value=decodeURIComponent(part.slice(eq+1));
      if(key==='filter'){filter.value=value;}
      if(key==='status'){status.value=value;}
      if(key==='sort'){var th=table.querySelector('th[data-key="'+value.replace(/[^a-z]/g,'')+'"]');if(th){sortBy(th);}}
    });
    apply();
    document.body.setAttribute('data-ready','1');
    })();
    """
}
