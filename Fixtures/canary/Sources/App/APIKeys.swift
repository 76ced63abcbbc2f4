import Foundation

enum APIKeys {
    static let anthropic = "sk-ant-api03-C2lUFynUYDK9SGewL2AGe4Ae_yHC3A_lCbFs83cEDU3qLyjjjBGiqRbC5o-X2a7cZmP1gaAWtceE6oqXlDu_zoXYr2mWQAA"
    static let canary = "TEST_SECRET_MUST_NEVER_LEAK_12345"
}
