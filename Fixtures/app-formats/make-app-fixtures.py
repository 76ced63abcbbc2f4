#!/usr/bin/env python3
"""Writes small app-bundle files with one planted string each, for the tests and the fuzz
seeds: binary property lists (Python's plistlib, FMT_BINARY: what plutil writes), a DEX
string table, a Java class file's constant pool, an Android binary XML file and a resource
table. Only the structures keyshape reads are written (a DEX without code, a class without
methods), laid out as the format specifications say.

Usage:
  make-app-fixtures.py OUTDIR VALUE   the files, VALUE planted once in each (tests pass a
                                      key made at run time; nothing secret is committed)
  make-app-fixtures.py --seeds DIR    the fuzz seeds: DIR/bplist, dex, android, class
"""
import os
import plistlib
import struct
import sys


def info_plist(value):
    # Nested: the key path is CFBundleURLTypes/0/StripeKey.
    return plistlib.dumps({
        "CFBundleIdentifier": "com.example.demo",
        "CFBundleURLTypes": [{"CFBundleURLName": "demo", "CFBundleURLSchemes": ["demo"], "StripeKey": value}],
        "CFBundleVersion": "1",
    }, fmt=plistlib.FMT_BINARY)


def localized_plist(value):
    # A non-ASCII character makes plistlib write the string (and the key) as UTF-16BE.
    return plistlib.dumps({"Schl\u00fcssel": "\u00e9 " + value}, fmt=plistlib.FMT_BINARY)


def data_plist(value):
    return plistlib.dumps({"Blobs": [b"\x00\x01binary", ("token=" + value + "\n").encode()]}, fmt=plistlib.FMT_BINARY)


def uleb128(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def dex(strings):
    header_size = 0x70
    ids_off = header_size
    data_off = ids_off + 4 * len(strings)
    data = bytearray()
    offsets = []
    for s in strings:
        offsets.append(data_off + len(data))
        raw = s.encode()  # ASCII: modified UTF-8 is the same bytes
        data += uleb128(len(s)) + raw + b"\x00"
    size = data_off + len(data)
    header = bytearray(header_size)
    header[0:8] = b"dex\n035\x00"
    struct.pack_into("<III", header, 32, size, header_size, 0x12345678)
    struct.pack_into("<II", header, 56, len(strings), ids_off)
    struct.pack_into("<II", header, 104, len(data), data_off)  # data_size, data_off
    return bytes(header) + b"".join(struct.pack("<I", o) for o in offsets) + bytes(data)


def java_class(value):
    pool = []

    def utf8(s):
        b = s.encode()
        pool.append(b"\x01" + struct.pack(">H", len(b)) + b)

    utf8("App")                                   # 1
    pool.append(b"\x07" + struct.pack(">H", 1))   # 2 Class App
    utf8("java/lang/Object")                      # 3
    pool.append(b"\x07" + struct.pack(">H", 3))   # 4 Class Object
    pool.append(b"\x05" + struct.pack(">q", 42))  # 5 (and 6) Long: two slots
    utf8(value)                                   # 7
    pool.append(b"\x08" + struct.pack(">H", 7))   # 8 String #7
    count = 9
    body = struct.pack(">HHHHHHH", 0x21, 2, 4, 0, 0, 0, 0)  # flags, this, super, no members
    return b"\xca\xfe\xba\xbe" + struct.pack(">HHH", 0, 52, count) + b"".join(pool) + body


def chunk(kind, header, body):
    return struct.pack("<HHI", kind, 8 + len(header), 8 + len(header) + len(body)) + header + body


def string_pool(strings, utf8):
    data = bytearray()
    offsets = []
    for s in strings:
        offsets.append(len(data))
        if utf8:
            b = s.encode()
            assert len(s) < 0x80 and len(b) < 0x80
            data += bytes([len(s), len(b)]) + b + b"\x00"
        else:
            u = s.encode("utf-16-le")
            data += struct.pack("<H", len(u) // 2) + u + b"\x00\x00"
    while len(data) % 4:
        data += b"\x00"
    header_size = 28
    strings_start = header_size + 4 * len(strings)
    header = struct.pack("<IIIII", len(strings), 0, 0x100 if utf8 else 0, strings_start, 0)
    return chunk(0x0001, header, b"".join(struct.pack("<I", o) for o in offsets) + bytes(data))


def android_manifest(value):
    pool = string_pool(["manifest", "package", "com.example.demo", value], utf8=False)
    resource_map = chunk(0x0180, b"", struct.pack("<I", 0x0101021B))
    return chunk(0x0003, b"", pool + resource_map)


def resource_table(value):
    values = string_pool(["res/layout/main.xml", value], utf8=True)
    types = string_pool(["string"], utf8=False)
    keys = string_pool(["app_name", "api_key"], utf8=True)
    name = "com.example.demo".encode("utf-16-le").ljust(256, b"\x00")
    header_size = 8 + 4 + 256 + 4 * 5
    header = struct.pack("<I", 0x7F) + name + struct.pack("<IIIII", header_size, 1, header_size + len(types), 2, 0)
    package = chunk(0x0200, header, types + keys)
    return chunk(0x0002, struct.pack("<I", 1), values + package)


def files(value):
    return {
        "Info.plist": info_plist(value),
        "Localized.plist": localized_plist(value),
        "Data.plist": data_plist(value),
        "classes.dex": dex(["<init>", "Lcom/example/App;", value, "onCreate"]),
        "App.class": java_class(value),
        "AndroidManifest.xml": android_manifest(value),
        "resources.arsc": resource_table(value),
    }


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        out = sys.argv[2]
        placeholder = "token-placeholder-not-a-key"
        groups = {"bplist": ["Info.plist", "Localized.plist", "Data.plist"], "dex": ["classes.dex"],
                  "class": ["App.class"], "android": ["AndroidManifest.xml", "resources.arsc"]}
        made = files(placeholder)
        for group, names in groups.items():
            os.makedirs(os.path.join(out, group), exist_ok=True)
            for name in names:
                with open(os.path.join(out, group, name), "wb") as f:
                    f.write(made[name])
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, value = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, data in files(value).items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
