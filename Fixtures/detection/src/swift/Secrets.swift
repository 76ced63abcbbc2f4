import Foundation

enum Secrets {
    static let apiToken = "SVeX3crTni1ZQKhaEAfwLROxbtrnNR70frvS0OE5"
    static let firebaseServerKey = "AAAAdMcJeRo:APA91bw5axzcSmiFzPvvE5k22yFyg6lB0UJT5vwA2BAUCI4dJ4qiZLK524O1YZHQtmuSf6bIpvoTSF2SXon5qmQG3Fu2M5p5ghd7Cc5DIFtCdCZikeiX2WQNe6wze6ZQtpwPupSqlnLu"
    static let placeholderKey = "YOUR_API_KEY"
}
