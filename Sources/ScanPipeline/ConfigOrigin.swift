/// Who wrote a setting (`SettingPolicy`): the person running keyshape (flags,
/// `--config FILE`, `--rules`, the `GITLEAKS_CONFIG*` environment) or the scanned repository
/// (its root's `.keyshape.toml`, `.gitleaks.toml`, `.gitleaksignore`, inline markers), which
/// may be hostile: a pull request from a fork can add any of those files.
public enum ConfigOrigin: String, Sendable, CaseIterable {
    case user
    case repository
}
