#!/usr/bin/env python3
"""Writes the decoders fuzz seeds (Fixtures/fuzz/decoders): one small input per encoding the
Decoders module reads (base64 and base64url, hex, percent, JSON and C escapes, data: URIs),
double encodings, a Kubernetes Secret, a docker config.json, a base64 image, an SRI hash and
a line of half-formed triggers, so libFuzzer starts where every decoder does something. The
value inside is key-shaped text no rule knows. Deterministic.

    python3 Fixtures/fuzz/make-decoder-seeds.py      # from the package root
"""
import base64
import pathlib
import urllib.parse

out = pathlib.Path(__file__).resolve().parent / "decoders"
out.mkdir(exist_ok=True)
v = "ks_decoded_canary_7Hq2Lx9Vb4Nw"


def b64(s):
    return base64.b64encode(s.encode() if isinstance(s, str) else s).decode()


seeds = {
    "base64.txt": f'secret: "{b64("token=" + v)}"\nunpadded={b64("token=" + v + "!").rstrip("=")}\n',
    "base64url.txt": "state=" + base64.urlsafe_b64encode((">>>" + v + "???").encode()).decode().rstrip("=") + "\n",
    "hex.txt": "blob: " + ("key=" + v).encode().hex() + "\nconst k = 0x" + v.encode().hex().upper() + ";\n",
    "percent.txt": "redirect: https://example.invalid/login?next="
    + urllib.parse.quote("https://api.example.invalid/v1?access_token=" + v, safe="") + "&x=1\n",
    "json-escape.json": '{"key": "' + "".join("\\u%04x" % ord(c) for c in v) + '\\/end", "q": "{\\"a\\":\\"b\\"}"}\n',
    "c-escape.c": 'char *k = "' + "".join("\\%03o" % ord(c) for c in v) + '";\nvar j = \''
    + "".join("\\x%02x" % ord(c) for c in v) + "';\n",
    "data-uri.html": f'<a href="data:text/plain;charset=utf-8;base64,{b64("password=" + v)}">x</a>\n'
    + f'<img src="data:text/plain,token%3D{v}%0A">\n',
    "double.txt": "state: " + b64("redirect=" + urllib.parse.quote("https://example.invalid/?token=" + v, safe=""))
    + "\nauth=" + b64(b64("user:" + v)) + "\n",
    "k8s-secret.yaml": f"apiVersion: v1\nkind: Secret\ndata:\n  username: {b64('administrator')}\n  api-key: {b64(v)}\n",
    "docker-config.json": '{"auths":{"registry.example.invalid":{"auth":"' + b64("deploy-bot:" + v) + '"}}}\n',
    "image.html": '<img src="data:image/png;base64,'
    + b64(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + bytes(range(256))) + '">\n',
    "sri.html": '<script integrity="sha384-' + b64(bytes((i * 37 + 11) % 256 for i in range(48))) + '"></script>\n',
    "mixed-triggers.txt": '%41%4 \\u00 \\x4 \\1 data: data:; data:,%4 "\\" \'\\/ ' + b64("a") + "=" * 3 + "\n",
}
for name, text in seeds.items():
    (out / name).write_text(text)
