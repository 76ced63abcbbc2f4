#!/usr/bin/env python3
"""Writes the file-scan fuzz seeds (Fixtures/fuzz/files) from the rule pack's own examples.

The harness scans each input as a file with the builtin rules, and libFuzzer only reaches
matching when inputs hold keyword-bearing, key-shaped text, so the seeds carry the rules'
examples (fake keys, markers removed) in the shapes the scanner reads: text per rule family,
printable runs inside a binary, UTF-16LE strings, CRLF lines with inline allow markers,
invalid UTF-8, a NUL just past the 8 KiB sniff window, and two planted object files from
Fixtures/binaries. Deterministic: the same Rules/ gives the same bytes.

    python3 Fixtures/fuzz/make-file-seeds.py      # from the package root; needs Python 3.11+ (tomllib)
"""
import pathlib
import shutil
import tomllib

root = pathlib.Path(__file__).resolve().parents[2]
out = root / "Fixtures/fuzz/files"
out.mkdir(exist_ok=True)
for old in out.iterdir():
    old.unlink()


def plain(example):
    return example.replace("«", "").replace("»", "")


families = {}
for path in sorted((root / "Rules").glob("*.toml")):
    rules = tomllib.loads(path.read_text(encoding="utf-8")).get("rules", [])
    families[path.stem] = rules

# Text: the first example and the first negative example of every rule, one a line, four
# rules a file. Small inputs with few secrets keep the fuzzer fast: every secret found costs
# a deliberately slow hash, and libFuzzer mutates small inputs best.
for family, rules in families.items():
    for start in range(0, len(rules), 4):
        lines = [f"# {family}"]
        for rule in rules[start:start + 4]:
            lines += [plain(e) for e in (rule.get("examples", [])[:1] + rule.get("negativeExamples", [])[:1])]
        (out / f"text-{family}-{start // 4 + 1}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

# Binaries: the first example of up to four rules of a few families as C strings between
# non-printable bytes (printable runs), and the same text as UTF-16LE after a NUL.
picked = ["anthropic", "openai", "aws", "github", "slack", "stripe", "private-keys", "jwt", "canary"]
for family in picked:
    rules = families[family]
    firsts = [plain(r["examples"][0]) for r in rules if r.get("examples")][:4]
    raw = bytearray(b"\x7fBIN\x00\x01\x02\x03")
    for n, text in enumerate(firsts):
        raw += text.encode("utf-8") + b"\x00" + bytes([1 + n % 30]) * (n % 5)
    (out / f"strings-{family}.bin").write_bytes(bytes(raw))
    utf16 = bytearray(b"\x00\x00")
    for text in firsts:
        utf16 += text.encode("utf-16-le", errors="replace") + b"\x00\x00"
    (out / f"utf16-{family}.bin").write_bytes(bytes(utf16))

# Text edge cases built from the canary and GitHub examples.
canary = plain(families["canary"][0]["examples"][0])
github = plain(families["github"][0]["examples"][0])
(out / "crlf-inline-allow.txt").write_bytes(
    f"a = 1\r\n{canary}\r\n{github} # keyshape:allow\r\n{canary} // gitleaks:allow\r\nb = 2\r\n".encode())
(out / "invalid-utf8.txt").write_bytes(b"\xff\xfe\xc3\x28 caf\xc3\xa9 \xf0\x9f\x94\x91 " + github.encode() + b"\n\x80\x80" + canary.encode())
filler = b"".join(b"line %04d of ordinary text\n" % i for i in range(310))
(out / "nul-after-sniff.txt").write_bytes(filler + b"\x00" + canary.encode() + b"\n")

# Object files with keys planted in real sections (built by Fixtures/binaries/make-fixtures.sh).
for planted in ["elf/keys-x86_64", "macho/keys-x86_64-macos.o"]:
    shutil.copyfile(root / "Fixtures/binaries" / planted, out / ("object-" + planted.replace("/", "-")))
