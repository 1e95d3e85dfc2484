"""benchmarks/extra_corpus.py builds the extra people's directory from git mirrors: each source is
read at its commit, written under `transcripts/<person>/…`, and the labels are checked against
the text the reader gives. Real git repositories made here, no mocks."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from builders import benchmark

ROOT = Path(__file__).resolve().parent.parent

ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/bin:/bin",
}


def _module() -> Any:
    return benchmark("extra_corpus")


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=ENV
    )
    return done.stdout.strip()


def _transcript(*prompts: str) -> str:
    rows = [
        {
            "type": "user",
            "uuid": f"u{n}",
            "sessionId": "s1",
            "timestamp": f"2026-01-01T10:00:0{n}Z",
            "message": {"role": "user", "content": text},
        }
        for n, text in enumerate(prompts)
    ]
    return "".join(json.dumps(r) + "\n" for r in rows)


def _checkpoint(repo: Path, ref: str, files: dict[str, str]) -> str:
    """Commit `files` on an orphan ref of its own (as the Entire CLI keeps each checkpoint) and
    return the commit."""
    _git(repo, "checkout", "-q", "--orphan", ref.rsplit("/", 1)[-1])
    _git(repo, "rm", "-rqf", "--ignore-unmatch", ".")
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, "utf-8")
        _git(repo, "add", path)
    _git(repo, "commit", "-qm", "checkpoint")
    commit = _git(repo, "rev-parse", "HEAD")
    _git(repo, "update-ref", ref, commit)
    return commit


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _label(transcript: str, line: int, text: str, keyword: str | None = None) -> dict[str, Any]:
    expected = (
        [{"kind": ["constraint"], "all_of": [[keyword]], "negated": False, "optional": False}]
        if keyword
        else []
    )
    return {"transcript": transcript, "line": line, "sha256": _sha(text), "expected": expected}


FIRST = "Always run the formatter before each commit."
SECOND = "Never push straight to the release branch."
OTHER = "Please rename this variable."


@pytest.fixture
def mirrors(tmp_path: Path) -> tuple[Path, str, str, str]:
    """A mirror `owner+repo` with two checkpoint refs that both hold `0/full.jsonl` and one plain
    commit holding `notes/s.jsonl`."""
    repo = tmp_path / "mirrors" / "owner+repo"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    one = _checkpoint(repo, "refs/entire/checkpoints/aa/one", {"0/full.jsonl": _transcript(FIRST)})
    two = _checkpoint(
        repo, "refs/entire/checkpoints/bb/two", {"0/full.jsonl": _transcript(OTHER, SECOND)}
    )
    plain = _checkpoint(repo, "refs/heads/plain", {"notes/s.jsonl": _transcript(FIRST)})
    return tmp_path / "mirrors", one, two, plain


def _src(commit: str, path: str, name: str | None = None) -> dict[str, str]:
    src = {"repo": "owner/repo", "commit": commit, "path": path}
    return {**src, "as": name} if name else src


def _person(folder: Path, sources: list[dict[str, str]], labels: list[dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"person": "p", "language": "en", "sources": sources, "labels": labels}
    (folder / "p.json").write_text(json.dumps(entry), "utf-8")
    return folder


def test_two_sources_with_one_path_coexist_under_their_own_names(
    tmp_path: Path, mirrors: tuple[Path, str, str, str]
) -> None:
    mirror_dir, one, two, plain = mirrors
    people = _person(
        tmp_path / "people",
        [
            _src(one, "0/full.jsonl", "aa-one/full.jsonl"),
            _src(two, "0/full.jsonl", "bb-two/full.jsonl"),
            _src(plain, "notes/s.jsonl"),
        ],
        [
            _label("p/aa-one/full.jsonl", 1, FIRST, "formatter"),
            _label("p/bb-two/full.jsonl", 1, OTHER),
            _label("p/bb-two/full.jsonl", 2, SECOND, "release"),
            _label("p/notes/s.jsonl", 1, FIRST, "formatter"),
        ],
    )
    out = tmp_path / "out"
    assert _module().build(mirror_dir, out, people) == 0
    built = out / "transcripts" / "p"
    assert FIRST in (built / "aa-one" / "full.jsonl").read_text("utf-8")
    assert SECOND in (built / "bb-two" / "full.jsonl").read_text("utf-8")
    assert FIRST in (built / "notes" / "s.jsonl").read_text("utf-8")  # no name: its path
    assert not (built / "0").exists()
    rows = [json.loads(r) for r in (out / "labels.jsonl").read_text("utf-8").splitlines()]
    assert [(r["transcript"], r["line"]) for r in rows] == [
        ("p/aa-one/full.jsonl", 1),
        ("p/bb-two/full.jsonl", 1),
        ("p/bb-two/full.jsonl", 2),
        ("p/notes/s.jsonl", 1),
    ]


def test_a_label_is_checked_against_the_text_of_its_own_named_source(
    tmp_path: Path, mirrors: tuple[Path, str, str, str]
) -> None:
    mirror_dir, one, two, _ = mirrors
    people = _person(
        tmp_path / "people",
        [
            _src(one, "0/full.jsonl", "aa-one/full.jsonl"),
            _src(two, "0/full.jsonl", "bb-two/full.jsonl"),
        ],
        # line 1 of the second checkpoint is OTHER, not FIRST: the label's text has changed
        [_label("p/bb-two/full.jsonl", 1, FIRST, "formatter")],
    )
    assert _module().build(mirror_dir, tmp_path / "out", people) == 1


def test_two_sources_that_would_share_a_name_are_refused(
    tmp_path: Path, mirrors: tuple[Path, str, str, str]
) -> None:
    mirror_dir, one, two, _ = mirrors
    people = _person(
        tmp_path / "people",
        [
            _src(one, "0/full.jsonl"),
            _src(two, "0/full.jsonl"),
        ],
        [],
    )
    with pytest.raises(ValueError, match="p/0/full.jsonl"):
        _module().build(mirror_dir, tmp_path / "out", people)


@pytest.mark.parametrize("name", ["../elsewhere.jsonl", "/abs.jsonl", "a//b.jsonl", "a/./b.jsonl"])
def test_a_name_must_stay_inside_the_persons_folder(
    tmp_path: Path, mirrors: tuple[Path, str, str, str], name: str
) -> None:
    mirror_dir, one, _, _ = mirrors
    people = _person(
        tmp_path / "people",
        [_src(one, "0/full.jsonl", name)],
        [],
    )
    with pytest.raises(ValueError, match="plain relative"):
        _module().build(mirror_dir, tmp_path / "out", people)
