#!/usr/bin/env python3
"""Builds hostile archives at test time, each small on disk, next to a readable member that
holds a planted FAKE key, so a test can check that the hostile part is an error entry and
the rest is still scanned.

    Fixtures/archives/make-hostile.py OUT KEY [NAME ...]

OUT receives the archives named (default: all of them); KEY is the fake key to plant (a
Stripe-shaped `sk_live_...`). Nothing here is committed but this script: the 10 GiB member
and the 42.zip-style tree exist only as compressed bytes (a few MiB at most), never expanded
anywhere, and every archive is built in well under a second or two.

  bomb42.zip      42.zip-style: 16 zips of 16 zips of 16 zips of 16 zips of a 16 MiB zero
                  file (1 TiB nominal), five levels, deeper than the default depth limit
  zeros10g.zip    one zip64 member of 10 GiB of zeros (160 deflate segments of 64 MiB of
                  zeros each, 10 MiB on disk), then a member with the key
  zeros10g.tgz    the same as a tar.gz (the member comes first, so nothing after it is reachable)
  quine.zip       a zip whose only member is the zip itself, byte for byte (a deflate quine,
                  its CRC a fixed point), so reading it nests without end
  overlap.zip     two central-directory entries pointing at the same local data, plus the key
  names.zip       members named `../../escape.txt`, `/abs.txt` and with control characters
  corrupt.zip     a deflated member with its stream damaged, then the key member
  truncated.tar   the key member, then a member cut short
  encrypted.zip   a member encrypted with a password (by `zip -P`), then the key member
"""
import io
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib


def key_text(key):
    return ("# settings\nmode=live\nSTRIPE_KEY=%s\n" % key).encode()


# ---- CRC-32 of long zero runs without a pass over them -------------------------------------
# CRC is linear over GF(2): appending n zero bytes is a 32x32 matrix, squared per bit of n.
def _gf2_times(matrix, vector):
    total, row = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[row]
        vector >>= 1
        row += 1
    return total


def _gf2_square(matrix):
    return [_gf2_times(matrix, matrix[n]) for n in range(32)]


def crc32_combine(crc_a, crc_b, length_b):
    """crc32(A + B) from crc32(A), crc32(B) and len(B)."""
    if length_b <= 0:
        return crc_a
    odd = [0xEDB88320] + [1 << (n - 1) for n in range(1, 32)]  # one zero bit
    even = _gf2_square(odd)  # two zero bits
    odd = _gf2_square(even)  # four zero bits
    while True:
        even = _gf2_square(odd)
        if length_b & 1:
            crc_a = _gf2_times(even, crc_a)
        length_b >>= 1
        if not length_b:
            break
        odd = _gf2_square(even)
        if length_b & 1:
            crc_a = _gf2_times(odd, crc_a)
        length_b >>= 1
        if not length_b:
            break
    return crc_a ^ crc_b


def crc32_of_zeros(count):
    result, power, power_length = 0, zlib.crc32(b"\0"), 1
    while count:
        if count & 1:
            result = crc32_combine(result, power, power_length)
        power = crc32_combine(power, power, power_length)
        power_length *= 2
        count >>= 1
    return result


# ---- raw zip writing (for what zipfile will not write) -------------------------------------
def local_header(name, method, crc, csize, usize, flags=0, extra=b""):
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if extra else 20, flags, method, 0, 0x21,
                       crc, csize, usize, len(name), len(extra)) + name + extra


def central_entry(name, method, crc, csize, usize, offset, flags=0, extra=b""):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45 if extra else 20, 45 if extra else 20, flags, method,
                       0, 0x21, crc, csize, usize, len(name), len(extra), 0, 0, 0, 0, offset) + name + extra


def end_record(count, cd_size, cd_offset, comment=b""):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, cd_size, cd_offset, len(comment)) + comment


def zeros_segment():
    """64 MiB of zeros deflated and ended by a full flush, so copies of it concatenate into
    one valid stream."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(bytes(1 << 26)) + c.flush(zlib.Z_FULL_FLUSH)


def write_zeros10g_zip(path, key):
    segment, count = zeros_segment(), 160
    size = count << 26
    csize = len(segment) * count + 2
    name = b"zeros.bin"
    crc = crc32_of_zeros(size)
    extra_local = struct.pack("<HHQQ", 1, 16, size, csize)
    with open(path, "wb") as f:
        f.write(local_header(name, 8, crc, 0xFFFFFFFF, 0xFFFFFFFF, extra=extra_local))
        for _ in range(count):
            f.write(segment)
        f.write(b"\x03\x00")  # a final, empty fixed-Huffman block
        second_offset = f.tell()
        body = key_text(key)
        second = b"config/app.env"
        f.write(local_header(second, 0, zlib.crc32(body), len(body), len(body)) + body)
        cd_offset = f.tell()
        extra_central = struct.pack("<HHQQ", 1, 16, size, csize)
        cd = central_entry(name, 8, crc, 0xFFFFFFFF, 0xFFFFFFFF, 0, extra=extra_central)
        cd += central_entry(second, 0, zlib.crc32(body), len(body), len(body), second_offset)
        f.write(cd + end_record(2, len(cd), cd_offset))


def write_zeros10g_tgz(path):
    size = 160 << 26
    header = bytearray(512)
    header[0:9] = b"zeros.bin"
    header[100:108] = b"0000644\0"
    header[108:116] = b"0000000\0"
    header[116:124] = b"0000000\0"
    header[124] = 0x80  # GNU base-256 size
    header[124 + 4:136] = size.to_bytes(8, "big")
    header[136:148] = b"00000000000\0"
    header[156] = ord("0")
    header[257:265] = b"ustar  \0"
    header[148:156] = b" " * 8
    header[148:155] = ("%06o\0" % sum(header)).encode()
    member = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = member.compress(bytes(header)) + member.flush()
    # 160 gzip members of 64 MiB of zeros each: gzip readers decode concatenated members as
    # one stream.
    zeros = zlib.compressobj(9, zlib.DEFLATED, 31)
    segment = zeros.compress(bytes(1 << 26)) + zeros.flush()
    with open(path, "wb") as f:
        f.write(head)
        for _ in range(160):
            f.write(segment)


def write_bomb42(path):
    leaf = io.BytesIO()
    with zipfile.ZipFile(leaf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("0.bin", bytes(16 << 20))
    level = leaf.getvalue()
    for _ in range(4):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for i in range(16):
                z.writestr("%x.zip" % i, level)
        level = out.getvalue()
    open(path, "wb").write(level)


# ---- the quine -----------------------------------------------------------------------------
# A deflate stream that inflates to the whole zip holding it: prefix P (the local header),
# the stream C itself, suffix S (central directory and end record). Two opcodes, each
# exactly UNIT bytes and byte-aligned, so an opcode's bytes can be data for another:
#   L(n): the next n*UNIT bytes are literal (an empty stored block, then a stored block
#         header for n*UNIT bytes);
#   R(n): repeat the last n*UNIT bytes of output (a fixed-Huffman block of copies at
#         distance n*UNIT, empty fixed-Huffman blocks as filler, then an empty stored block
#         to get back to a byte boundary).
# With p = |P|/UNIT and s = |S|/UNIT, this program prints P, then itself, then S:
#   L(p+1) [P L(p+1)]     R(p+1)      L1 [R(p+1)]     L1 [L1]
#   L4 [R(p+1) L1 L1 L4]  R4          L4 [R4 L4 R4 L4]
#   R4                    L4 [R4 L0 L0 L(s+1)]        R4     L0     L0
#   L(s+1) [R(s+1) S]     R(s+1)
# (brackets: the literal bytes an L carries). The CRC-32 of the output appears inside it
# four times; CRC is affine over GF(2) in those 32 bits, so the value that equals its own
# CRC is found by solving a 32x32 linear system.
UNIT = 10

LENGTHS = [(257 + i, 3 + i, 0) for i in range(8)] + [
    (265, 11, 1), (266, 13, 1), (267, 15, 1), (268, 17, 1), (269, 19, 2), (270, 23, 2), (271, 27, 2), (272, 31, 2),
    (273, 35, 3), (274, 43, 3), (275, 51, 3), (276, 59, 3), (277, 67, 4), (278, 83, 4), (279, 99, 4), (280, 115, 4),
    (281, 131, 5), (282, 163, 5), (283, 195, 5), (284, 227, 5), (285, 258, 0)]
DISTANCES = [(0, 1, 0), (1, 2, 0), (2, 3, 0), (3, 4, 0)] + [
    (4 + 2 * k + j, (1 << (k + 2)) + 1 + j * (1 << (k + 1)), k + 1) for k in range(13) for j in range(2)]


class Bits:
    def __init__(self):
        self.bytes, self.acc, self.count = bytearray(), 0, 0

    def put(self, value, width):  # LSB first
        self.acc |= value << self.count
        self.count += width
        while self.count >= 8:
            self.bytes.append(self.acc & 0xFF)
            self.acc >>= 8
            self.count -= 8

    def huffman(self, code, width):  # Huffman codes go most significant bit first
        self.put(int(format(code, "0%db" % width)[::-1], 2), width)

    def align(self):
        if self.count:
            self.put(0, 8 - self.count)


def fixed_code(symbol):
    if symbol < 144:
        return 0x30 + symbol, 8
    if symbol < 256:
        return 0x190 + symbol - 144, 9
    if symbol < 280:
        return symbol - 256, 7
    return 0xC0 + symbol - 280, 8


def length_symbol(length):
    for symbol, base, extra in reversed(LENGTHS):
        if length >= base:
            return symbol, length - base, extra
    raise ValueError(length)


def distance_symbol(distance):
    for symbol, base, extra in reversed(DISTANCES):
        if distance >= base:
            return symbol, distance - base, extra
    raise ValueError(distance)


def copy_bits(length, distance):
    _, _, lextra = length_symbol(length)
    _, _, dextra = distance_symbol(distance)
    return fixed_code(length_symbol(length)[0])[1] + lextra + 5 + dextra


def split_copies(total, distance, budget):
    """Copy lengths summing to `total` and a count of empty fixed-Huffman blocks (10 bits
    each, no output) whose bits together fill `budget` within 7 bits (the slack the
    byte-aligned empty stored block absorbs)."""
    def search(left, used, parts):
        if left == 0:
            for empties in range(4):
                if budget - 7 <= used + 10 * empties <= budget:
                    return parts, empties
            return None
        for length in range(min(258, left), 2, -1):
            if left - length in (1, 2):
                continue
            bits = used + copy_bits(length, distance)
            if bits > budget or len(parts) > 3:
                continue
            found = search(left - length, bits, parts + [length])
            if found:
                return found
        return None
    return search(total, 0, [])


def op_literal(n):
    size = n * UNIT
    return bytes([0, 0, 0, 0xFF, 0xFF, 0]) + struct.pack("<HH", size, size ^ 0xFFFF)


def op_repeat(n, final=False):
    distance = n * UNIT
    # header 3 bits + end of block 7 + the stored block's 3, padded, then LEN/NLEN (4 bytes)
    budget = (UNIT - 4) * 8 - 13
    found = split_copies(distance, distance, budget)
    assert found, "no copy split for %d" % n
    parts, empties = found
    bits = Bits()
    bits.put(0, 1)
    bits.put(1, 2)  # fixed Huffman
    for length in parts:
        symbol, extra_value, extra = length_symbol(length)
        bits.huffman(*fixed_code(symbol))
        bits.put(extra_value, extra)
        dsymbol, dextra_value, dextra = distance_symbol(distance)
        bits.huffman(dsymbol, 5)
        bits.put(dextra_value, dextra)
    bits.huffman(*fixed_code(256))
    for _ in range(empties):
        bits.put(0, 1)
        bits.put(1, 2)
        bits.huffman(*fixed_code(256))
    bits.put(1 if final else 0, 1)
    bits.put(0, 2)  # stored
    bits.align()
    out = bytes(bits.bytes) + bytes([0, 0, 0xFF, 0xFF])
    assert len(out) == UNIT, len(out)
    return out


def quine_program(prefix, suffix):
    p, s = len(prefix) // UNIT, len(suffix) // UNIT
    L, R = op_literal, op_repeat
    return b"".join([
        L(p + 1), prefix, L(p + 1), R(p + 1),
        L(1), R(p + 1), L(1), L(1),
        L(4), R(p + 1), L(1), L(1), L(4), R(4),
        L(4), R(4), L(4), R(4), L(4), R(4),
        L(4), R(4), L(0), L(0), L(s + 1), R(4), L(0), L(0),
        L(s + 1), R(s + 1, final=True), suffix, R(s + 1, final=True),
    ])


def write_quine(path):
    name = b"self/r.zip"  # 30 + 10 bytes of local header: 4 units
    comment = b"q" * 2     # central entry 56 + end record 22 + 2: 8 units
    assert (30 + len(name)) % UNIT == 0 and (46 + len(name) + 22 + len(comment)) % UNIT == 0

    def build(crc):
        # The sizes do not depend on the CRC: lay the file out once with placeholders.
        prefix_len = 30 + len(name)
        suffix_len = 46 + len(name) + 22 + len(comment)
        program_len = len(quine_program(bytes(prefix_len), bytes(suffix_len)))
        total = prefix_len + program_len + suffix_len
        prefix = local_header(name, 8, crc, program_len, total)
        cd = central_entry(name, 8, crc, program_len, total, 0)
        suffix = cd + end_record(1, len(cd), prefix_len + program_len, comment)
        return prefix + quine_program(prefix, suffix) + suffix

    base = zlib.crc32(build(0))
    columns = [zlib.crc32(build(1 << bit)) ^ base for bit in range(32)]  # the linear part
    # Solve (A + I) x = base over GF(2): Gaussian elimination on 32 rows.
    rows = []
    for r in range(32):
        row = 0
        for c in range(32):
            if ((columns[c] >> r) & 1) ^ (1 if r == c else 0):
                row |= 1 << c
        rows.append([row, (base >> r) & 1])
    pivot_row = 0
    pivots = []
    for c in range(32):
        found = next((r for r in range(pivot_row, 32) if (rows[r][0] >> c) & 1), None)
        if found is None:
            continue
        rows[pivot_row], rows[found] = rows[found], rows[pivot_row]
        for r in range(32):
            if r != pivot_row and (rows[r][0] >> c) & 1:
                rows[r][0] ^= rows[pivot_row][0]
                rows[r][1] ^= rows[pivot_row][1]
        pivots.append(c)
        pivot_row += 1
    assert all(rows[r][1] == 0 for r in range(pivot_row, 32)), "no CRC fixed point for this layout"
    crc = 0
    for r, c in enumerate(pivots):
        if rows[r][1]:
            crc |= 1 << c
    data = build(crc)
    assert zlib.crc32(data) == crc
    assert zlib.decompressobj(-15).decompress(data[30 + len(name):-(46 + len(name) + 22 + len(comment))]) == data
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.read(name.decode()) == data
    open(path, "wb").write(data)


def write_overlap(path, key):
    body = key_text(key)
    crc = zlib.crc32(body)
    a, b = b"first/app.env", b"again/app.env"
    local = local_header(a, 0, crc, len(body), len(body)) + body
    cd = central_entry(a, 0, crc, len(body), len(body), 0) + central_entry(b, 0, crc, len(body), len(body), 0)
    open(path, "wb").write(local + cd + end_record(2, len(cd), len(local)))


def write_names(path, key):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("../../escape-%d.txt" % os.getpid(), "outside\n")
        z.writestr("/abs-%d.txt" % os.getpid(), "absolute\n")
        z.writestr("evil\x1b[2J\rname\n.env", key_text(key))


def write_corrupt(path, key):
    text = "".join("line %d of a long member that deflates well\n" % i for i in range(5000)).encode()
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as z:
        z.writestr(zipfile.ZipInfo("damaged.txt"), text, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("config/app.env"), key_text(key), compress_type=zipfile.ZIP_STORED)
    data = bytearray(raw.getvalue())
    start = 30 + len("damaged.txt")
    csize = struct.unpack_from("<I", data, 18)[0]
    for i in range(start + csize // 3, start + csize // 3 + 64):
        data[i] = 0xFF
    open(path, "wb").write(bytes(data))


def write_truncated(path, key):
    raw = io.BytesIO()
    with tarfile_open(raw) as t:
        for name, body in [("config/app.env", key_text(key)), ("big.txt", b"x" * 20000)]:
            info = tarfile_info(name, len(body))
            t.addfile(info, io.BytesIO(body))
    open(path, "wb").write(raw.getvalue()[:512 * 3 + 5000])


def tarfile_open(buffer):
    import tarfile
    return tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT)


def tarfile_info(name, size):
    import tarfile
    info = tarfile.TarInfo(name)
    info.size = size
    return info


def write_encrypted(path, key):
    with tempfile.TemporaryDirectory() as work:
        open(os.path.join(work, "locked.txt"), "w").write("cannot be read without the password\n")
        os.makedirs(os.path.join(work, "config"))
        open(os.path.join(work, "config", "app.env"), "wb").write(key_text(key))
        subprocess.run(["zip", "-q", "-P", "not-a-real-password", path, "locked.txt"], cwd=work, check=True)
        subprocess.run(["zip", "-q", path, "config/app.env"], cwd=work, check=True)


BUILDERS = {
    "bomb42.zip": lambda path, key: write_bomb42(path),
    "zeros10g.zip": write_zeros10g_zip,
    "zeros10g.tgz": lambda path, key: write_zeros10g_tgz(path),
    "quine.zip": lambda path, key: write_quine(path),
    "overlap.zip": write_overlap,
    "names.zip": write_names,
    "corrupt.zip": write_corrupt,
    "truncated.tar": write_truncated,
    "encrypted.zip": write_encrypted,
}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: make-hostile.py OUT KEY [NAME ...]")
    out, key = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name in sys.argv[3:] or BUILDERS:
        BUILDERS[name](os.path.abspath(os.path.join(out, name)), key)


if __name__ == "__main__":
    main()
