#!/usr/bin/env bash
# Builds the archive fixtures with the real tools, each holding a planted FAKE key, and
# writes next to them the exact location keyshape must report for each one.
#
#   Fixtures/archives/make-archives.sh OUT KEY
#
# OUT: an empty (or missing) folder; it receives the archives and `expected.txt`, one line
# per planted key: its text-report location (`App.ipa!Payload/App.app/App:arm64:
# __TEXT,__cstring+0x314`, `pkg.tar.xz!package/config/settings.json:4:14`) and the rule id.
# KEY: the fake key to plant, shaped like a Stripe live secret key (`sk_live_` and 24 or
# more letters and digits), so the builtin rule `stripe-live-secret-key` fires on it.
#
# Run by Tests/CLITests (ArchiveScanTests.testFixturesFromRealTools) into a temporary folder at every test run;
# nothing it makes is committed: the archives would hold key-shaped literals the
# self-audit would have to allowlist, their bytes change with each tool's version, and the
# tools are test dependencies already (scripts/bootstrap --test). This script is the
# source of truth for what each fixture holds.
#
# Needs: zip, tar, gzip, bzip2, xz, zstd, ar (binutils), python3, and clang (the Swift
# toolchain's, for the Mach-O object: `clang -target arm64-apple-ios16.0 -c`).
#
# The expected offsets are computed here by searching the built member's bytes for the key,
# never by keyshape, so the test checks keyshape's locations against an independent reading.
set -euo pipefail
export LC_ALL=C

[ $# -eq 2 ] || { echo "usage: make-archives.sh OUT KEY" >&2; exit 2; }
out="$1"
key="$2"
case "$key" in sk_live_????????????????????????*) ;; *) echo "make-archives: KEY must look like sk_live_ and 24+ characters" >&2; exit 2 ;; esac
PATH="/opt/swift/usr/bin:$PATH"
for tool in zip tar gzip bzip2 xz zstd ar python3 clang; do
    command -v "$tool" >/dev/null || { echo "make-archives: $tool not found" >&2; exit 1; }
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rule=stripe-live-secret-key
expect() { printf '%s %s\n' "$1" "$rule" >>"$out/expected.txt"; }
: >"$out/expected.txt"

# ---- text members --------------------------------------------------------------------------
# app.env: the key on line 3 after `STRIPE_KEY=` (column 12), then comment lines enough for
# `zip -9` to deflate the member (a short one it would store).
env_file() {
    mkdir -p "$(dirname "$1")"
    printf '# settings\nDEBUG=0\nSTRIPE_KEY=%s\n' "$key" >"$1"
    for i in $(seq 1 40); do printf '# setting %d: see the operations guide\n' "$i" >>"$1"; done
}

# zip: one stored (-0) and one deflated (-9) member each, with the key in a text member.
mkdir -p "$work/zip/config"
env_file "$work/zip/config/app.env"
# A member zip really deflates: padding that compresses well.
python3 -c 'import sys; sys.stdout.write("".join("line %d of padding padding padding\n" % i for i in range(4000)))' >"$work/zip/config/padding.txt"
(cd "$work/zip" && zip -q -X -0 "$out/stored.zip" config/padding.txt config/app.env)
(cd "$work/zip" && zip -q -X -9 "$out/deflated.zip" config/padding.txt config/app.env)
expect "stored.zip!config/app.env:3:12"
expect "deflated.zip!config/app.env:3:12"

# A jar's layout: the manifest first, classes, resources; the key in a resource.
jar="$work/jar"
mkdir -p "$jar/META-INF" "$jar/com/example/demo"
printf 'Manifest-Version: 1.0\r\nMain-Class: com.example.demo.App\r\nCreated-By: make-archives.sh\r\n\r\n' >"$jar/META-INF/MANIFEST.MF"
# A class file's shape (magic, version, a constant pool holding only names): a binary member
# without a key, so the jar holds a real mix of members.
python3 - "$jar/com/example/demo/App.class" <<'PY'
import struct, sys
def utf8(s):
    b = s.encode()
    return b"\x01" + struct.pack(">H", len(b)) + b
pool = [utf8("com/example/demo/App"), b"\x07\x00\x01", utf8("java/lang/Object"), b"\x07\x00\x03"]
body = b"\xca\xfe\xba\xbe" + struct.pack(">HHH", 0, 61, len(pool) + 1) + b"".join(pool)
body += struct.pack(">HHHHHHH", 0x21, 2, 4, 0, 0, 0, 0)
open(sys.argv[1], "wb").write(body)
PY
printf 'app.name=demo\napp.mode=live\nstripe.secret=%s\n' "$key" >"$jar/application.properties"
(cd "$jar" && zip -q -X -9 "$out/app.jar" META-INF/MANIFEST.MF com/example/demo/App.class application.properties)
expect "app.jar!application.properties:3:15"

# tar, plain and with each compressor: the key on line 4 of a JSON file, after 13 characters.
mkdir -p "$work/tar/package/config"
printf '{\n  "name": "demo",\n  "mode": "live",\n  "key": "%s"\n}\n' "$key" >"$work/tar/package/config/settings.json"
printf 'module.exports = {};\n' >"$work/tar/package/index.js"
tar -C "$work/tar" --owner=0 --group=0 --numeric-owner -cf "$out/pkg.tar" package
gzip -9nc <"$out/pkg.tar" >"$out/pkg.tgz"
bzip2 -9c <"$out/pkg.tar" >"$out/pkg.tar.bz2"
xz -6c <"$out/pkg.tar" >"$out/pkg.tar.xz"
zstd -q -19 -c <"$out/pkg.tar" >"$out/pkg.tar.zst"
for name in pkg.tar pkg.tgz pkg.tar.bz2 pkg.tar.xz pkg.tar.zst; do
    expect "$name!package/config/settings.json:4:11"
done

# ar in a .deb's layout: debian-binary, control.tar.xz, data.tar.xz, written by ar itself.
deb="$work/deb"
mkdir -p "$deb/control" "$deb/data/etc/demo" "$deb/ar"
printf 'Package: demo\nVersion: 1.0\nArchitecture: all\nMaintainer: nobody <nobody@example.invalid>\nDescription: demo\n' >"$deb/control/control"
printf 'token = %s\n' "$key" >"$deb/data/etc/demo/demo.conf"
printf '2.0\n' >"$deb/ar/debian-binary"
tar -C "$deb/control" --owner=0 --group=0 --numeric-owner -cJf "$deb/ar/control.tar.xz" ./control
tar -C "$deb/data" --owner=0 --group=0 --numeric-owner -cJf "$deb/ar/data.tar.xz" ./etc
(cd "$deb/ar" && ar rcD "$out/demo.deb" debian-binary control.tar.xz data.tar.xz)
expect "demo.deb!data.tar.xz!./etc/demo/demo.conf:1:9"

# ---- a Mach-O object in an .ipa ------------------------------------------------------------
# The key as a C string literal: clang puts it in __TEXT,__cstring.
cat >"$work/app.c" <<C
static const char *apiKey = "$key";
const char *keyshape_fixture_api_key(void) { return apiKey; }
C
ipa="$work/ipa"
mkdir -p "$ipa/Payload/App.app"
clang -target arm64-apple-ios16.0 -Os -fno-asynchronous-unwind-tables -c "$work/app.c" -o "$ipa/Payload/App.app/App"
printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>CFBundleExecutable</key><string>App</string></dict></plist>\n' >"$ipa/Payload/App.app/Info.plist"
offset="$(python3 -c 'import sys; data = open(sys.argv[1], "rb").read(); key = sys.argv[2].encode(); at = data.find(key + b"\0"); assert at >= 0 and data.count(key) == 1, "key not in the object once"; print("%x" % at)' "$ipa/Payload/App.app/App" "$key")"
(cd "$ipa" && zip -q -X -9 -r "$out/App.ipa" Payload)
expect "App.ipa!Payload/App.app/App:arm64:__TEXT,__cstring+0x$offset"

# ---- nested three deep ---------------------------------------------------------------------
# A release zip (stored) holding a tar.gz holding the .ipa (deflated): three archives, then
# the Mach-O member.
nest="$work/nest"
mkdir -p "$nest/bundle/dist" "$nest/release"
cp "$out/App.ipa" "$nest/bundle/dist/App.ipa"
tar -C "$nest/bundle" --owner=0 --group=0 --numeric-owner -czf "$nest/release/bundle.tar.gz" dist
(cd "$nest/release" && zip -q -X -0 "$out/release.zip" bundle.tar.gz)
expect "release.zip!bundle.tar.gz!dist/App.ipa!Payload/App.app/App:arm64:__TEXT,__cstring+0x$offset"

# A jar in a war in a zip, deflated, stored and deflated: a text member three archives in.
war="$work/war"
mkdir -p "$war"
printf 'name=demo\nmode=live\napi.key=%s\n' "$key" >"$war/application.properties"
(cd "$war" && zip -q -X -9 inner.jar application.properties && zip -q -X -0 middle.war inner.jar && zip -q -X -9 "$out/libs.zip" middle.war)
expect "libs.zip!middle.war!inner.jar!application.properties:3:9"
