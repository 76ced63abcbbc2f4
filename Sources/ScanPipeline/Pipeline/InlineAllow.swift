/// `keyshape:allow` (and gitleaks' `gitleaks:allow`) on a line silences findings there.
enum InlineAllow {
    static let markers: [[UInt8]] = [Array("keyshape:allow".utf8), Array("gitleaks:allow".utf8)]

    static func present(in line: UnsafeRawBufferPointer) -> Bool {
        markers.contains { marker in
            guard line.count >= marker.count else { return false }
            var i = 0
            let last = line.count - marker.count
            while i <= last {
                if line[i] == marker[0] {
                    var j = 1
                    while j < marker.count && line[i + j] == marker[j] { j += 1 }
                    if j == marker.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
