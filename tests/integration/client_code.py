"""The client's own code, run: functions cut out of the installed Claude Code executable (a
Bun build that carries its JavaScript as text) and evaluated with Node.js, so what we
reimplement is checked against the client's function itself, not against expectations
written by hand.

Only small pure functions are cut out, found by their shape rather than their minified names
(which change with every build). When a new client version no longer matches a shape, the
caller fails and says which function to read again."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

# 2.1.332: `var jae=200;function me(e){return Math.abs(Nle(e)).toString(36)}
# function w(e){return e.replace(/[^a-zA-Z0-9]/g,"-")}
# function J$(e){let n=w(e);if(n.length<=jae)return n;return`${n.slice(0,jae)}-${me(e)}`}`
_SANITIZE = re.compile(
    rb"var ([\w$]+)=(\d+);"
    rb"function ([\w$]+)\(e\)\{return Math\.abs\(([\w$]+)\(e\)\)\.toString\(36\)\}"
    rb"function ([\w$]+)\(e\)\{return e\.replace\(/\[\^a-zA-Z0-9\]/g,\"-\"\)\}"
    rb"function ([\w$]+)\(e\)\{let n=\5\(e\);if\(n\.length<=\1\)return n;"
    rb"return`\$\{n\.slice\(0,\1\)\}-\$\{\3\(e\)\}`\}"
)


class ShapeNotFound(RuntimeError):
    pass


def sanitize_source(binary: Path) -> tuple[str, str]:
    """(JavaScript defining the client's project-folder-name function and the hash it uses,
    that function's name)."""
    data = binary.read_bytes()
    found = _SANITIZE.search(data)
    if found is None:
        raise ShapeNotFound(
            "the client's project folder name function (sanitizePath: replace [^a-zA-Z0-9] "
            "with '-', cut at a length, append a base-36 hash) was not found in "
            f"{binary}: read it again and update model/home.py:slug_for and this pattern"
        )
    hash_name = re.escape(found.group(4))
    hashes = re.findall(rb"function " + hash_name + rb"\(\w\)\{[^{}]*\}", data)
    if len(set(hashes)) != 1:
        raise ShapeNotFound(f"the hash function {found.group(4)!r} is defined {len(set(hashes))} ways")
    return (hashes[0] + b";" + found.group(0)).decode("utf-8"), found.group(6).decode("utf-8")


def client_slugs(binary: Path, paths: Sequence[str]) -> list[str]:
    """The client's project folder name for each of `paths`, computed by its own code in Node."""
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("node is not on PATH")
    source, name = sanitize_source(binary)
    script = (
        source
        + ";const fs=require('fs');"
        + f"process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0,'utf8')).map({name})))"
    )
    proc = subprocess.run(
        [node, "-e", script],
        input=json.dumps(list(paths), ensure_ascii=True),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return list(json.loads(proc.stdout))


def slug_inputs() -> list[str]:
    """Paths around the cut (200 units), deep ones, and non-ASCII ones (a character outside the
    BMP is two UTF-16 units, a decomposed accent two characters), plus seeded random ones."""
    import random

    deep = "/tmp/pytest-of-ci/pytest-0/test_long0/" + "/".join(f"segment-{i:02d}.d" for i in range(30))
    fixed = [
        "/home/user/proj",
        "/a/b.c",
        "C:\\Users\\me\\My Project",
        "",
        "/" + "a" * 199,  # 200: kept whole
        "/" + "a" * 200,  # 201: cut
        deep,
        deep + "/proj",
        "/home/josé/проект",
        "/home/jose\u0301",  # NFD: two units where NFC has one
        "/x/😀",
        "/" + "a" * 198 + "😀" + "/b" * 20,  # a surrogate pair across the cut
        "/srv/" + "中文目录/" * 60,
        "/srv/" + "😀/" * 80,
    ]
    rng = random.Random(42)
    alphabet = "abcXYZ019/-._ ~éß中😀\u0301"
    randoms = ["/" + "".join(rng.choice(alphabet) for _ in range(rng.randint(150, 400))) for _ in range(100)]
    return fixed + randoms


if __name__ == "__main__":
    # python -m tests.integration.client_code <client executable> > tests/fixtures/claude_slugs.json
    import sys

    binary = Path(sys.argv[1])
    inputs = slug_inputs()
    print(json.dumps({"client": sys.argv[2] if len(sys.argv) > 2 else "",
                      "cases": [list(c) for c in zip(inputs, client_slugs(binary, inputs), strict=True)]},
                     ensure_ascii=True, indent=0))
