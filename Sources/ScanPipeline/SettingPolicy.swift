/// Who may set each thing a config file (or the scanned tree) can say: the one table the
/// config loader obeys and docs/threat-model.md's "Who may set what" reproduces (a test compares the two).
///
/// `user` settings come only from the person running keyshape: flags, `--config FILE`,
/// `--rules`, the `GITLEAKS_CONFIG*` and `KEYSHAPE_HASH_KEY` environment. Found in the scanned
/// root's `.keyshape.toml` or `.gitleaks.toml`, such a setting is ignored with a warning that
/// gives its file, line and column (never its value), and the scan goes on with the user's
/// value or the default. `repository` settings may also come from the scanned tree, because
/// what they do is counted and shown: they add findings, or suppress findings that still go
/// to `stats.suppressed` and, with `--include-suppressed`, to the report; `--no-config` and
/// `--ignore-inline-allow` switch them off.
///
/// The rule: a repository may not lower a limit or a minimum length, widen what is read
/// beyond the tree asked for, switch rules off, or choose a key its readers would know.
public enum SettingPolicy {
    public struct Entry: Sendable, Equatable {
        /// As docs/threat-model.md writes it: `[scan] minStringLength`, `[[allowlists]] paths`, `.gitleaksignore`.
        public var name: String
        /// The least trusted origin that may set it: `.repository` means both may.
        public var setBy: ConfigOrigin
        /// Why, in a few words (docs/threat-model.md's third column).
        public var reason: String
    }

    public static let entries: [Entry] = [
        Entry(name: "[scan] maxFileSize", setBy: .user,
              reason: "a limit: a repository could lower it to leave its files unread"),
        Entry(name: "[scan] minStringLength", setBy: .user,
              reason: "a minimum length: 1024 and one NUL byte hid every key in a text file"),
        Entry(name: "[scan] followSymlinks", setBy: .user,
              reason: "changes what is read; even then no link is followed out of the scanned roots"),
        Entry(name: "[scan] hashKey", setBy: .user,
              reason: "a key the repository chose is a key every reader of the report has"),
        Entry(name: "[extend] disabledRules", setBy: .user,
              reason: "switches rules off (a rules file or `--disable-rule`)"),
        Entry(name: "[extend] useDefault", setBy: .user,
              reason: "switches the builtin rules off (a rules file or `--no-builtin-rules`)"),
        Entry(name: "[extend] path", setBy: .user,
              reason: "chooses another file to read (pass it with `--rules`)"),
        Entry(name: "[[rules]]", setBy: .repository,
              reason: "`.gitleaks.toml` only: added to the loaded rules, never replacing one"),
        Entry(name: "[[allowlists]] paths", setBy: .repository,
              reason: "counted; a repository's covered files are still read (the user's are not read)"),
        Entry(name: "[[allowlists]] regexes", setBy: .repository,
              reason: "judge the repository's own rules only (never a trusted rule's value); counted"),
        Entry(name: "[[allowlists]] stopwords", setBy: .repository,
              reason: "judge the repository's own rules only; counted; an empty stopword is refused"),
        Entry(name: "[[allowlists]] commits", setBy: .repository,
              reason: "counted in `stats.suppressed.allowlist`"),
        Entry(name: gitleaksIgnore, setBy: .repository,
              reason: "counted in `stats.suppressed.baseline`"),
        Entry(name: inlineMarkers, setBy: .repository,
              reason: "counted in `stats.suppressed.inline`; off with `--ignore-inline-allow`"),
    ]

    /// The names of the two entries that are not config keys.
    public static let gitleaksIgnore = ".gitleaksignore"
    public static let inlineMarkers = "`keyshape:allow` / `gitleaks:allow`"

    /// The entry named `name`; nil for a name the table does not list.
    public static func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    /// Whether a config of `origin` may set `name`. A name the table does not list is the
    /// user's: a setting added later is closed to repositories until the table says otherwise.
    public static func permits(_ name: String, from origin: ConfigOrigin) -> Bool {
        origin == .user || entry(name)?.setBy == .repository
    }

    /// The warning for a setting the scanned root's config may not make: where it is, never
    /// its value (text from a hostile file).
    public static func ignoredWarning(_ name: String, at position: String) -> String {
        "\(position): warning: `\(name)` is ignored in the scanned root's config (only flags, --config FILE or the environment set it); the scan keeps the user's value or the default"
    }
}
