"""The extra people's corpus, kept as references and labels only (never their text).

Public Claude Code transcripts of people outside the real dev corpus are measurement data we do
not own, so the repository keeps, per person, `benchmarks/extra_corpus/people/<person>.json`:
where each transcript lives (repository, commit, path), the person's language, and our own blind
labels (line, the sha256 of the statement text the reader gives, expected atoms as in
`tests/fixtures/extraction/README.md`, notes in our own words). A transcript is known as
`<person>/<path>` (the labels' `transcript`, and its file under the built directory's
`transcripts/`); a source may carry `"as": "<name>"` to be known as `<person>/<name>` instead, so
that several files with one path (each checkpoint ref of the Entire CLI holds `0/full.jsonl`) can
be used side by side. Within a person these names must differ. The text itself is read back
from local git mirrors of those repositories (the library's `fetch` puts them under
`/work/.mirror/<owner>+<name>/…`) and written to a directory `extraction.py --extra` reads:

    python benchmarks/extra_corpus.py build --mirrors /work/.mirror --out /tmp/extra
    python benchmarks/extraction.py --no-speed --extra /tmp/extra

    python benchmarks/extra_corpus.py statements FILE.jsonl   # what a labeller labels

`statements` lists a transcript's genuine user statements (line, origin, text) as the reader
yields them: labellers label from this list only, before the extractor is ever run on the
person. A label whose sha256 no longer matches the text the reader gives is reported (the reader
or the transcript changed), not silently scored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEOPLE = Path(__file__).resolve().parent / "extra_corpus" / "people"

sys.path.insert(0, str(ROOT))

from agent_memory.transcripts.reader import iter_statements  # noqa: E402


def text_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_people(folder: Path = PEOPLE) -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))]


def transcript_name(person: str, src: dict[str, Any]) -> str:
    """What a source is known as: `<person>/<as>` when it names itself, else `<person>/<path>`."""
    name = str(src.get("as") or src["path"])
    parts = name.split("/")
    if name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"{person}: {name!r} is not a plain relative file name")
    return f"{person}/{name}"


def _mirror(mirrors: Path, repo: str) -> Path | None:
    """The git directory `fetch` made for `owner/name` (a bare repository somewhere below
    `<mirrors>/<owner>+<name>`)."""
    base = mirrors / repo.replace("/", "+")
    if not base.exists():
        return None
    for candidate in [base, *sorted(base.rglob("*"))]:
        if (
            candidate.is_dir()
            and (candidate / "HEAD").is_file()
            and (candidate / "objects").is_dir()
        ):
            return candidate
    return None


def _blob(git_dir: Path, commit: str, path: str) -> bytes | None:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
        capture_output=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


def build(mirrors: Path, out: Path, people: Path = PEOPLE) -> int:
    """Write `<out>/transcripts/<person>/<path or as>` and `<out>/labels.jsonl`; return how many
    labelled lines could not be scored (missing mirror or file, changed text)."""
    (out / "transcripts").mkdir(parents=True, exist_ok=True)
    lost = 0
    entries = load_people(people)
    with (out / "labels.jsonl").open("w", encoding="utf-8") as labels_out:
        for entry in entries:
            who = entry["person"]
            names = [transcript_name(who, src) for src in entry["sources"]]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"{who}: two sources would be {twice[0]} (give one an 'as')")
            have: set[str] = set()
            for src, rel in zip(entry["sources"], names, strict=True):
                git_dir = _mirror(mirrors, src["repo"])
                data = _blob(git_dir, src["commit"], src["path"]) if git_dir else None
                if data is None:
                    print(f"missing: {src['repo']}@{src['commit'][:10]}:{src['path']} (fetch it)")
                    continue
                dest = out / "transcripts" / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
                have.add(rel)
            texts = {
                (rel, st.line): st.text
                for rel in have
                for st in iter_statements(out / "transcripts" / rel)
            }
            for label in entry["labels"]:
                key = (label["transcript"], int(label["line"]))
                if label["transcript"] not in have:
                    lost += 1
                    continue
                sha = label.get("sha256")
                if key not in texts and not label["expected"]:
                    continue  # labelled "nothing durable" and no longer read as typing: fine
                if key not in texts or (sha and text_sha(texts[key]) != sha):
                    print(f"changed: {key[0]}:{key[1]} (not a statement, or its text differs)")
                    lost += 1
                    continue
                row = {"transcript": key[0], "line": key[1], "expected": label["expected"]}
                labels_out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"built {out} ({len(entries)} people; {lost} labelled line(s) left out)")
    return lost


def statements(path: Path) -> None:
    for st in iter_statements(path):
        text = st.text if len(st.text) <= 4000 else st.text[:4000] + " …[cut]"
        print(
            json.dumps(
                {"line": st.line, "origin": st.origin, "sha256": text_sha(st.text), "text": text},
                ensure_ascii=False,
            )
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="verb", required=True)
    b = sub.add_parser("build")
    b.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    b.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("statements")
    s.add_argument("file", type=Path)
    args = ap.parse_args(argv)
    if args.verb == "build":
        build(args.mirrors, args.out)
    else:
        statements(args.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
