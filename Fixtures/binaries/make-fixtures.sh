#!/usr/bin/env bash
# Regenerates the binary fixtures for Tests/ObjectFilesTests and expected.tsv.
#
#   Fixtures/binaries/make-fixtures.sh        (from anywhere; writes next to this script)
#
# Needs: clang and ld.lld (the Swift toolchain's, /opt/swift/usr/bin), gcc, strings (binutils),
# llvm-lipo-14, llvm-objdump-14, llvm-readelf-14 (apt-get install binutils llvm-14).
#
# expected.tsv is computed here with the LLVM tools and grep, NOT with keyshape's parser, so
# the tests check the parser against an independent reading of each file. Every planted
# string is FAKE (see src/keys.c); Fixtures/ is allowlisted in .keyshape.toml.
#
# Mach-O executables cannot be linked on Linux (ld64.lld refuses Apple platforms here), so
# MH_EXECUTE and FAT_MAGIC_64 are written by the tests themselves (MachOWriter.swift).
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/src"
PATH="/opt/swift/usr/bin:$PATH"
for tool in clang ld.lld gcc strings llvm-lipo-14 llvm-objdump-14 llvm-readelf-14; do
    command -v "$tool" >/dev/null || { echo "make-fixtures: $tool not found" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -rf "$here/macho" "$here/elf"
mkdir -p "$here/macho" "$here/elf"

# ---- build ---------------------------------------------------------------------------------
cflags=(-Os -fno-asynchronous-unwind-tables -fno-unwind-tables)

mach() {  # mach TARGET OUTPUT
    clang -target "$1" "${cflags[@]}" -c "$src/keys.c" -o "$here/macho/$2"
}
mach arm64-apple-ios16.0    keys-arm64-ios.o     # the field case
mach arm64e-apple-ios16.0   keys-arm64e-ios.o
mach x86_64-apple-macos12   keys-x86_64-macos.o
mach armv7-apple-ios10      keys-armv7-ios.o
mach i386-apple-macos10.13  keys-i386-macos.o

# Universal object; small segment alignment keeps the file small (real dylibs use 2^14).
llvm-lipo-14 -create \
    "$here/macho/keys-arm64-ios.o" "$here/macho/keys-x86_64-macos.o" \
    "$here/macho/keys-armv7-ios.o" "$here/macho/keys-i386-macos.o" \
    -segalign arm64 100 -segalign x86_64 100 -segalign armv7 100 -segalign i386 100 \
    -output "$here/macho/keys-universal.o"

# ELF: gcc for the real host toolchain (PIE executable, shared object), clang + ld.lld for
# other classes and byte orders (freestanding, entry keyshape_fixture_start, no libc).
gcc -Os -s -o "$here/elf/keys-x86_64" "$src/keys.c" "$src/main.c"
gcc -Os -s -shared -fPIC -o "$here/elf/libkeys-x86_64.so" "$src/keys.c"
lld_exe() {  # lld_exe TARGET OUTPUT
    clang -target "$1" "${cflags[@]}" -fno-pic -c "$src/keys.c" -o "$work/$2.o"
    ld.lld -static -e keyshape_fixture_start --build-id=none "$work/$2.o" -o "$here/elf/$2"
}
lld_exe i386-linux-gnu       keys-i386       # ELF32 little-endian
lld_exe powerpc64-linux-gnu  keys-ppc64      # ELF64 big-endian
lld_exe mips-linux-gnu       keys-mips       # ELF32 big-endian
clang -target aarch64-linux-gnu "${cflags[@]}" -c "$src/keys.c" -o "$here/elf/keys-aarch64.o"  # ET_REL

# The field case, as `strings -a` sees it.
field_key="$(grep -o 'sk_live_[A-Za-z0-9]\{47\}' "$src/keys.c")"
if ! strings -a "$here/macho/keys-arm64-ios.o" | grep -qF "$field_key"; then
    echo "make-fixtures: strings -a does not find the field key in keys-arm64-ios.o" >&2; exit 1
fi

# ---- expected.tsv --------------------------------------------------------------------------
# label -> grep -P pattern. UTF-16LE: a NUL after each character.
labels=(field-key data-canary const-canary utf16-canary)
data_canary="$(grep -o 'TEST_SECRET_MUST_NEVER_LEAK_InDataSection' "$src/keys.c")"
const_canary="$(grep -o 'TEST_SECRET_MUST_NEVER_LEAK_InConstSection' "$src/keys.c")"
utf16_canary="$(grep -o 'TEST_SECRET_MUST_NEVER_LEAK_Utf16Literal' "$src/keys.c")"
utf16_pattern="$(printf '%s' "$utf16_canary" | sed 's/./&\\x00/g')"
pattern_for() {
    case "$1" in
        field-key) printf '%s\\x00' "$field_key" ;;        # NUL-terminated: the literal itself
        data-canary) printf '%s' "$data_canary" ;;
        const-canary) printf '%s' "$const_canary" ;;
        utf16-canary) printf '%s' "$utf16_pattern" ;;
    esac
}

# Section table of a thin file: "name offset size address|-" per line (decimal offset/size,
# address as printed), zero-fill and empty sections left out.
macho_sections() {
    llvm-objdump-14 --macho --private-headers "$1" | awk '
        /^Section$/ { insec = 1; next }
        /^Load command/ { insec = 0; next }
        insec && $1 == "sectname" { sn = $2 }
        insec && $1 == "segname" { sg = $2 }
        insec && $1 == "addr" { addr = $2 }
        insec && $1 == "size" { size = $2 }
        insec && $1 == "offset" { off = $2 }
        insec && $1 == "type" {
            if ($2 !~ /ZEROFILL/) print sg "," sn, off, size, addr
            insec = 0
        }'
}
elf_sections() {
    llvm-readelf-14 -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '
        NF >= 9 && $2 != "NULL" && $2 != "NOBITS" {
            flags = (NF == 10) ? $7 : ""
            addr = (flags ~ /A/) ? "0x" $3 : "-"
            print $1, "0x" $4, "0x" $5, addr
        }'
}
macho_arch() { llvm-lipo-14 -info "$1" | sed 's/.*architecture: //; s/ *$//'; }
elf_arch() {
    case "$(llvm-readelf-14 -h "$1" | sed -n 's/^ *Machine: *//p')" in
        *X86-64*) echo x86_64 ;;
        *80386*) echo i386 ;;
        *AArch64*) echo arm64 ;;
        *PowerPC64*|*"PowerPC 64"*) echo ppc64 ;;
        *MIPS*) echo mips ;;
        *) echo unknown ;;
    esac
}

# rows FILE FORMAT ARCH FIXTURE BASE: one row per planted string found in FILE (a thin image),
# offsets shifted by BASE (the fat slice offset).
rows() {
    local file="$1" format="$2" arch="$3" fixture="$4" base="$5" table
    if [[ "$format" == mach-o ]]; then table="$(macho_sections "$file")"; else table="$(elf_sections "$file")"; fi
    local label hit
    for label in "${labels[@]}"; do
        while IFS=: read -r hit _; do
            [[ -n "$hit" ]] || continue
            # Narrowest section containing the hit.
            local best="" bestsize=-1 name off size addr
            while read -r name off size addr; do
                off=$((off)); size=$((size))
                if (( hit >= off && hit < off + size )) && (( bestsize < 0 || size < bestsize )); then
                    best="$name $off $addr"; bestsize=$size
                fi
            done <<< "$table"
            [[ -n "$best" ]] || { echo "make-fixtures: $label in $fixture is in no section" >&2; exit 1; }
            read -r name off addr <<< "$best"
            local va="-"
            [[ "$addr" != "-" ]] && va="$(printf '0x%x' $(( addr + hit - off )))"
            printf '%s\t%s\t%s\t%s\t%s\t%d\t%s\n' "$fixture" "$format" "$arch" "$name" "$label" $(( base + hit )) "$va"
        done < <(grep -obUaP "$(pattern_for "$label")" "$file" | cut -d: -f1 || true)
    done
}

{
    printf '# fixture\tformat\tarch\tsection\tlabel\tfileOffset\tvirtualAddress\n'
    printf '# generated by make-fixtures.sh with llvm-objdump-14/llvm-readelf-14/llvm-lipo-14; fileOffset decimal, absolute\n'
    printf '# utf16-canary on big-endian targets (ppc64, mips) is UTF-16BE: its row is where the UTF-16LE reading starts, one byte in\n'
    for f in keys-arm64-ios.o keys-arm64e-ios.o keys-x86_64-macos.o keys-armv7-ios.o keys-i386-macos.o; do
        rows "$here/macho/$f" mach-o "$(macho_arch "$here/macho/$f")" "macho/$f" 0
    done
    fat="$here/macho/keys-universal.o"
    llvm-objdump-14 --macho --universal-headers "$fat" | awk '$1 == "architecture" { a = $2 } $1 == "offset" { print a, $2 }' |
    while read -r arch offset; do
        llvm-lipo-14 "$fat" -thin "$arch" -output "$work/slice.o"
        rows "$work/slice.o" mach-o "$arch" macho/keys-universal.o "$offset"
    done
    for f in keys-x86_64 libkeys-x86_64.so keys-i386 keys-ppc64 keys-mips keys-aarch64.o; do
        rows "$here/elf/$f" elf "$(elf_arch "$here/elf/$f")" "elf/$f" 0
    done
} > "$here/expected.tsv"

# Fuzz seeds: the smallest fixtures of each format (see Sources/ObjectFilesFuzzer).
fuzz="$here/../fuzz"
mkdir -p "$fuzz/macho" "$fuzz/elf"
cp "$here/macho/keys-arm64-ios.o" "$here/macho/keys-armv7-ios.o" "$here/macho/keys-i386-macos.o" "$here/macho/keys-universal.o" "$fuzz/macho/"
cp "$here/elf/keys-i386" "$here/elf/keys-ppc64" "$here/elf/keys-mips" "$here/elf/keys-aarch64.o" "$fuzz/elf/"

echo "make-fixtures: $(grep -vc '^#' "$here/expected.tsv") planted strings in $(ls "$here/macho" "$here/elf" | grep -c .) files" >&2
