/// Key-shaped values made at run time, so no test file holds one for a scanner (or this
/// project's own self-audit) to find.
public enum TestKeys {
    /// A Stripe-shaped live key: `sk_live_` and `bodyLength` characters cycling upper case,
    /// lower case and digit, so every 8 bytes mix all three (what the rule's entropy and
    /// shape checks want). Random per call.
    public static func stripe(bodyLength: Int = 28) -> String {
        let upper = Array("ABCDEFGHJKLMNPQRSTUVWXYZ"), lower = Array("abcdefghijkmnopqrstuvwxyz"), digits = Array("23456789")
        return "sk_" + "live_" + String((0..<bodyLength).map { i in [upper.randomElement()!, lower.randomElement()!, digits.randomElement()!][i % 3] })
    }
}
