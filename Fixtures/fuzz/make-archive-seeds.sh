#!/usr/bin/env bash
# Writes the archive fuzz seeds (Fixtures/fuzz/archives): one small archive of each kind the
# reader opens, made by the real tools, plus a nested one and an encrypted member. Run from the
# repository root after changing what the reader opens; the seeds are committed (each < 2 KiB).
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/archives"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir -p pkg
printf 'seed member\n' > pkg/a.txt
printf 'second member\n%.0s' 1 2 3 4 5 6 7 8 > pkg/b.txt
export TZ=UTC
touch -d '2020-01-01 00:00:00' pkg pkg/a.txt pkg/b.txt
zip -q -X -0 stored.zip pkg/a.txt
zip -q -X -9 deflated.zip pkg/a.txt pkg/b.txt
zip -q -X -P seed encrypted.zip pkg/a.txt
zip -q -X -0 nested.zip deflated.zip
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2020-01-01' -cf plain.tar pkg
gzip -9nc plain.tar > plain.tar.gz
bzip2 -9c plain.tar > plain.tar.bz2
xz -6c plain.tar > plain.tar.xz
zstd -q -19 -c plain.tar > plain.tar.zst
ar rcD static.a pkg/a.txt pkg/b.txt
{ printf '#!/bin/sh\nexit 0\n'; cat deflated.zip; } > appended.sh
mkdir -p "$out"
for f in stored.zip deflated.zip encrypted.zip nested.zip plain.tar.gz plain.tar.bz2 plain.tar.xz plain.tar.zst static.a appended.sh; do
  cp "$f" "$out/$f"
done
# The plain tar is 10 KiB of mostly zeros; its first 2 KiB (header and first member) are
# enough to seed the tar parser, and a cut tar is itself a useful case.
head -c 2048 plain.tar > "$out/cut.tar"
ls -l "$out"
