"""What scripts/test-action's runs share: the fake values and the leak check, the tested
blocks of docs/ci.md, the release files and the mirror that serves them, and the fixture
repositories. Imported by scripts/test-action only."""
import functools
import hashlib
import http.server
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading

import yaml

HERE = pathlib.Path(__file__).resolve().parent.parent
failures = []


def fail(message):
    failures.append(message)
    print(f"test-action: FAIL: {message}", file=sys.stderr)


def say(message):
    print(f"test-action: {message}", flush=True)


GIT_ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
GIT_ENV.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", GIT_TERMINAL_PROMPT="0",
               GIT_AUTHOR_NAME="Ada Tester", GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada Tester", GIT_COMMITTER_EMAIL="ada@example.com")


def git(repo, *args):
    done = subprocess.run(["git", "-C", str(repo), *args], env=GIT_ENV, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


# Built from pieces so this file holds no canary literal of its own.
def canary(tag):
    return "TEST_SECRET_" + "MUST_NEVER_LEAK_" + tag


SECRETS = {"tree": canary("ActionTree01"), "history": canary("ActionHist02"), "product": canary("ActionProd03"),
           "pull request": canary("ActionPull04"), "pre-commit": canary("ActionHook05")}


def leaked(text):
    """The name of a value any 8-byte fragment of which is in text, else None."""
    for name, value in SECRETS.items():
        data = value.encode()
        if any(data[i:i + 8].decode() in text for i in range(len(data) - 7)):
            return name
    return None


def check_no_leak(what, text):
    name = leaked(text)
    if name:
        fail(f"{what}: holds part of the {name} value")


def doc_block(name):
    """The YAML block after `<!-- test-action: NAME -->` in docs/ci.md, parsed."""
    text = (HERE / "docs" / "ci.md").read_text()
    match = re.search(r"<!-- test-action: " + re.escape(name) + r" -->\n```yaml\n(.*?)\n```", text, re.S)
    if not match:
        raise RuntimeError(f"docs/ci.md has no tested block {name}")
    return yaml.safe_load(match.group(1))


# --- Release files and the mirror.

def release_files(root, given):
    dist = pathlib.Path(given) if given else root / "dist"
    if not given:
        subprocess.run([str(HERE / "scripts" / "package"), "--skip-build", "--out", str(dist)], check=True,
                       stdout=subprocess.DEVNULL)
    sums = sorted(dist.glob("keyshape-*-SHA256SUMS"))
    if not sums:
        raise RuntimeError(f"no keyshape-VERSION-SHA256SUMS in {dist}")
    version = sums[0].name[len("keyshape-"):-len("-SHA256SUMS")]
    return dist, version


class Mirror:
    """A release mirror: `vVERSION/FILE` over HTTP on 127.0.0.1, in a thread of this process."""

    def __init__(self, folder):
        handler = functools.partial(Quiet, directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def make_mirrors(root, dist, version):
    good = root / "mirror" / f"v{version}"
    good.mkdir(parents=True)
    for f in dist.iterdir():
        shutil.copy(f, good / f.name)
    # As a fork's releases: OWNER/keyshape in download-url is the action's own repository.
    (root / "mirror" / "acme" / "keyshape" / "releases" / "download").mkdir(parents=True)
    (root / "mirror" / "acme" / "keyshape" / "releases" / "download" / f"v{version}").symlink_to(good)
    bad = root / "mirror-tampered" / f"v{version}"
    shutil.copytree(good, bad)
    tarball = next(bad.glob("keyshape-*.tar.gz"))
    with open(tarball, "ab") as t:
        t.write(b"\0")
    return Mirror(root / "mirror"), Mirror(root / "mirror-tampered")


OLDER = """#!/bin/sh
# keyshape as a release before --format markdown and audit --range: those flags refused.
for arg in "$@"; do
  case "$arg" in --markdown-output*|--range*) [ "$1" = audit ] && { echo "keyshape: error: $arg does not apply" >&2; exit 2; } ;; esac
done
if [ "$1 $2" = "audit --help" ]; then "$0.real" audit --help | grep -v -e --markdown-output -e --range; exit 0; fi
exec "$0.real" "$@"
"""


def make_older_release(root, real, version, mirror):
    """A release VERSION on the mirror whose keyshape is OLDER around the real one."""
    name = f"keyshape-{version}-linux-{os.uname().machine}"
    tree = root / "older" / name
    tree.mkdir(parents=True)
    (tree / "keyshape").write_text(OLDER)
    (tree / "keyshape").chmod(0o755)
    (tree / "keyshape.real").symlink_to(real)
    folder = root / "mirror" / f"v{version}"
    folder.mkdir()
    subprocess.run(["tar", "-czf", str(folder / f"{name}.tar.gz"), "-C", str(root / "older"), name], check=True)
    digest = hashlib.sha256((folder / f"{name}.tar.gz").read_bytes()).hexdigest()
    (folder / f"keyshape-{version}-SHA256SUMS").write_text(f"{digest}  {name}.tar.gz\n")
    return folder / f"{name}.tar.gz"


# --- The fixture repositories.

def make_fixture(root):
    """workspace: a checkout with a key in a file, one that only history has, and build
    products (untracked) with a third. origin.git: its bare copy plus a branch `feature` whose
    one commit adds a fourth key. pr: a depth-1 clone of `feature`, as actions/checkout makes."""
    repo = root / "workspace"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("print('hello')\n")
    (repo / "old.env").write_text(f"TOKEN={SECRETS['history']}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "old.env").unlink()
    (repo / "config.env").write_text(f"API_TOKEN={SECRETS['tree']}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "second")
    (repo / "build").mkdir()
    (repo / "build" / "app.bin").write_bytes(b"\x00\x01binary\x00" + f"key={SECRETS['product']}".encode() + b"\x00")
    origin = root / "origin.git"
    git(root, "clone", "-q", "--bare", str(repo), str(origin))
    author = root / "author"
    git(root, "clone", "-q", str(origin), str(author))
    git(author, "checkout", "-q", "-b", "feature")
    (author / "pr.env").write_text(f"PR_TOKEN={SECRETS['pull request']}\n")
    git(author, "add", "-A")
    git(author, "commit", "-q", "-m", "feature")
    git(author, "push", "-q", "origin", "feature")
    base, head = git(origin, "rev-parse", "main"), git(origin, "rev-parse", "feature")
    pr = root / "pr"
    git(root, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{origin}", str(pr))
    return repo, pr, base, head


def check_places(what, log, present, absent=()):
    for place in present:
        if place not in log:
            fail(f"{what}: the log does not report {place}")
    for place in absent:
        if place in log:
            fail(f"{what}: reports {place}, which is not its to scan")


def validate(script, what, path):
    done = subprocess.run([sys.executable, str(HERE / "scripts" / script), str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{what}: {script}: {done.stderr.strip()[:500]}")
    else:
        say(f"{what}: {done.stdout.strip()}")
