import ScanCore

/// Turns a path's raw bytes into text for reports. Valid UTF-8 is kept as it is; every byte
/// that is not part of a valid UTF-8 sequence becomes `\xNN`, so two names that differ
/// only in such bytes print differently (decoding them to U+FFFD printed both alike).
/// Control characters are left to the printers, which escape all text they print.
public enum PathText {
    public static func display(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        return DisplayText.showingInvalidUTF8(bytes)
    }
}
