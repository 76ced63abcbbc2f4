/// Builds a minimal little-endian ELF64 file for scanner tests: the header, the given
/// sections' bytes, `.shstrtab`, then the section header table (no program headers).
/// `phantom` sections get a header only, at an offset past the end of the file.
struct TinyELF {
    var sections: [(name: String, data: [UInt8])] = []
    var phantom: [(name: String, offset: UInt64, size: UInt64)] = []

    /// The file, and the offset of each real section's bytes.
    func build() -> (bytes: [UInt8], offsets: [String: Int]) {
        var body: [UInt8] = []
        var names: [UInt8] = [0]
        var headers: [(name: Int, type: UInt32, offset: Int, size: Int)] = []
        var offsets: [String: Int] = [:]
        for s in sections {
            let offset = 64 + body.count
            offsets[s.name] = offset
            headers.append((names.count, 1, offset, s.data.count))
            names += Array(s.name.utf8) + [0]
            body += s.data
        }
        var far: [(name: Int, offset: UInt64, size: UInt64)] = []
        for p in phantom {
            far.append((names.count, p.offset, p.size))
            names += Array(p.name.utf8) + [0]
        }
        let shstrtabName = names.count
        names += Array(".shstrtab".utf8) + [0]
        let shstrtabOffset = 64 + body.count
        body += names
        while body.count % 8 != 0 { body.append(0) }
        let shoff = 64 + body.count
        let shnum = 1 + headers.count + far.count + 1

        var out = [UInt8](repeating: 0, count: 64)
        out[0...3] = [0x7f, 0x45, 0x4c, 0x46]
        out[4] = 2; out[5] = 1; out[6] = 1                   // ELF64, little-endian, version 1
        put(&out, 16, 2, UInt64(1))                          // ET_REL
        put(&out, 18, 2, UInt64(62))                         // EM_X86_64
        put(&out, 20, 4, UInt64(1))
        put(&out, 40, 8, UInt64(shoff))
        put(&out, 52, 2, UInt64(64))                         // e_ehsize
        put(&out, 54, 2, UInt64(56))                         // e_phentsize
        put(&out, 58, 2, UInt64(64))                         // e_shentsize
        put(&out, 60, 2, UInt64(shnum))
        put(&out, 62, 2, UInt64(shnum - 1))                  // .shstrtab is last
        out += body
        out += [UInt8](repeating: 0, count: 64)              // SHN_UNDEF
        func header(_ name: Int, _ type: UInt32, _ flags: UInt64, _ offset: UInt64, _ size: UInt64) {
            var h = [UInt8](repeating: 0, count: 64)
            put(&h, 0, 4, UInt64(name))
            put(&h, 4, 4, UInt64(type))
            put(&h, 8, 8, flags)
            put(&h, 24, 8, offset)
            put(&h, 32, 8, size)
            put(&h, 48, 8, 1)
            out += h
        }
        for h in headers { header(h.name, h.type, 0x2, UInt64(h.offset), UInt64(h.size)) }
        for f in far { header(f.name, 1, 0x2, f.offset, f.size) }
        header(shstrtabName, 3, 0, UInt64(shstrtabOffset), UInt64(names.count))
        return (out, offsets)
    }

    private func put(_ bytes: inout [UInt8], _ at: Int, _ width: Int, _ value: UInt64) {
        for i in 0..<width { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
}
