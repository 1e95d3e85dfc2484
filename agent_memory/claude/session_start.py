"""The session-start context: L3 + L2 rendered as one hook output line, cached in
`.git/agent-memory/session-start.cache` under a key of everything it is computed from (the L2
and L3 adopted.log — by stat and its first and last 64 KB, so a big log costs no more than a
small one — and memory file contents — only the atoms a block shows are injected — the recall
index and the `memory/atoms` tip, the git config that names the project, the code that
renders it), so a warm start costs a few stats and reads.

A miss renders it like `git memory context`, from the committed files (each adopted.log read
from where the fold the per-prompt hook keeps stopped: store/recall/adopted.held_logs), on the standard
library alone (no jsonschema, pygit2, GitPython — nor json, re, dataclasses,
typing or pathlib; tests/test_context.py fails when one is imported on this path). The
contested tags come from the recall index; when that is stale or missing the hook
renders with what it has and starts one detached rebuild (it never rebuilds inline), and the
rendering is cached only under a key that names that index, so the next start after the
rebuild renders again. Verbs that change the committed tiers call `warm()` afterwards, and the
background capture re-renders it, so the next session starts warm.
"""

from __future__ import annotations

import os
import sys

from agent_memory.claude.jobs import request_rebuild
from agent_memory.committed import attributes
from agent_memory.committed.tiers import BLOCK_FILES, LOG_WINDOW, open_inside
from agent_memory.gitio.refs import ATOMS_REF, read_ref
from agent_memory.model.home import memory_home_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from agent_memory.gitio.refs import Location

CONTEXT_CACHE = "session-start.cache"
CONTEXT_CACHE_FORMAT = "3"
_MERSENNE_61 = (1 << 61) - 1
# Files up to this size are signed by their whole content (a memory file the guard judges is
# at most 256 KB; config and attributes files are smaller), larger ones by _windowed_sig.
SIG_WHOLE_BYTES = 1 << 20
# The modules whose code decides the session-start text: editing one invalidates the cache.
# The guard's rules (every file of redact/) are signed apart, by `redact.signature`.
_CONTEXT_CODE = ("__init__.py", "claude/context.py", "claude/session_start.py",
                 "committed/render.py", "store/contradictions.py", "model/tool_families.py",
                 "committed/tiers.py",
                 "committed/templates.py", "model/atom.py", "model/paths.py", "model/fastjson.py",
                 "store/recall/files.py", "store/recall/index.py", "committed/verdicts.py",
                 "committed/guarded.py", "committed/reviewed.py", "committed/log_fold.py",
                 "store/recall/adopted.py", "committed/attributes.py", "gitio/attributes.py")  # fmt: skip


def session_start_line(repo: Location, tip: str, deadline: float | None = None) -> str:
    """The hook's output line ('' for "nothing to inject"): from the cache when it is warm.
    `repo` is the repository the hook resolved at its entry; nothing below resolves another.
    An adopted.log not read by `deadline` (time.monotonic) raises log_fold.FoldIncomplete."""
    line = _cached_context(repo, tip)
    return refresh_context(repo, in_hook=True, deadline=deadline) if line is None else line


def _open_sig(path: str, root: str | None) -> BinaryIO:
    """`path` opened for reading; under `root` (a work tree, the global memory repo) it is
    `path` relative to it, opened as the readers open it (tiers.open_inside: a regular file,
    no link followed). A cloned repository's `CLAUDE.md` or `.memory/adopted.log` linked to
    /dev/zero or a FIFO made the key read forever (all memory) or block: a hook that never
    returned."""
    if root is None:
        return open(path, "rb")
    return open(open_inside(root, path), "rb", closefd=True)


def _file_sig(path: str, content: bool, root: str | None = None) -> str:
    """A file's identity for the cache key: its content's CRC (for small data files that may
    be rewritten within one timestamp tick) or its stat (for code). `root`: see _open_sig."""
    try:
        if not content:
            st = os.stat(path)
            return f"{st.st_size}:{st.st_mtime_ns}"
        with _open_sig(path, root) as fh:
            if os.fstat(fh.fileno()).st_size > SIG_WHOLE_BYTES:
                # A cloned CLAUDE.md of 300 MB (zeros compress to nothing in a clone) was read
                # and checksummed whole by every start, warm ones too: 2.5 s and 1.3 GB each.
                return _windowed_sig(fh)
            data = fh.read(SIG_WHOLE_BYTES + 1)
        # The bytes as one integer modulo the Mersenne prime 2^61-1: a stable checksum in C
        # arithmetic, without zlib or hashlib (a shared library to load, ~1 ms per start).
        return f"{len(data)}:{int.from_bytes(data, 'little') % _MERSENNE_61:x}"
    except OSError:
        return "-"


def _windowed_sig(fh: BinaryIO) -> str:
    """An open file's identity at a cost that does not grow with it: its inode, size, mtime and
    ctime, and the checksum of its first and last LOG_WINDOW bytes. A rewrite in place moves
    the ctime, which no one can set back; git replaces a file (a new inode)."""
    st = os.fstat(fh.fileno())
    head = os.pread(fh.fileno(), LOG_WINDOW, 0)
    tail = os.pread(fh.fileno(), LOG_WINDOW, max(st.st_size - LOG_WINDOW, len(head)))
    data = head + b"|" + tail
    return (f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:"
            f"{int.from_bytes(data, 'little') % _MERSENNE_61:x}")


def _log_sig(root: str) -> str:
    """adopted.log's identity for the cache key, at a cost that does not grow with it (a 40 MB
    log checksummed whole cost ~275 ms per start): its inode, size, mtime and ctime, and the
    checksum of its first and last LOG_WINDOW bytes (as committed/log_fold.py tracks it for the
    per-prompt hook). A rewrite in place moves the ctime, which no one can set back; the
    windows also catch one within the same tick at the start or the end (where adopt, the
    lifecycle verbs and a roll-back write). Git replaces the file: a new inode."""
    try:
        with _open_sig(".memory/adopted.log", root) as fh:
            return _windowed_sig(fh)
    except OSError:
        return "-"


def _git_config_files(common: str) -> list[str]:
    """Where `git config memory.project` may be set, lowest precedence first (include.path
    files are not followed: `_project_name` asks git when a file has one)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [] if os.environ.get("GIT_CONFIG_NOSYSTEM") else [os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
    if os.environ.get("GIT_CONFIG_GLOBAL"):
        files.append(os.environ["GIT_CONFIG_GLOBAL"])
    else:
        files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    files.append(os.path.join(common, "config"))
    return files


def context_key(repo: Location, tip: str) -> str:
    """Everything the session-start text is computed from, as one line."""
    from agent_memory import __version__
    from agent_memory.redact.signature import rules_signature
    from agent_memory.store.recall import files as recall

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # agent_memory/
    state, work = repo.state, repo.work
    home = memory_home_dir()
    parts = [CONTEXT_CACHE_FORMAT, __version__, sys.implementation.cache_tag or "", tip,
             recall.indexed_oid(state) or "-", _file_sig(recall.index_path(state), False),
             work or "-", _log_sig(work) if work else "-", home, _log_sig(home)]  # fmt: skip
    # The blocks decide which logged atoms were shown to a reviewer (committed/reviewed.py).
    parts += [_file_sig(name, True, root) for root in (work, home) if root for name in BLOCK_FILES]  # fmt: skip
    # the config files and those they include (core.attributesFile, memory.project may be there)
    followed = _config_files_followed(repo.common)
    parts += [_file_sig(path, True) for path in followed]
    # What could put a memory file through a filter or an encoding (committed/attributes.py):
    # signed, so a warm start runs no git and an attribute added since is a miss. A source
    # this reader cannot screen is its own signature.
    parts += [path if root == attributes.UNSCREENED else _file_sig(path, True, root)
              for tree in attribute_trees(repo, home, followed) for path, root in tree[2]]  # fmt: skip
    parts.append(os.environ.get("GIT_ATTR_SOURCE", ""))
    parts += [
        os.environ.get(name, "")
        for name in ("GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS")
    ]
    parts += [_file_sig(os.path.join(package, *name.split("/")), False) for name in _CONTEXT_CODE]
    parts.append(rules_signature())
    return repr(parts)  # one line: repr escapes newlines in paths


def _cached_context(repo: Location, tip: str) -> str | None:
    """The cached hook output line ('' for "nothing to inject"), or None on a miss. A stale
    recall index is part of the key; it also starts one detached rebuild."""
    from agent_memory.store.recall.files import indexed_oid, read_state_file

    state = repo.state
    if indexed_oid(state) != tip:
        request_rebuild(repo)
    try:
        key, _, line = read_state_file(os.path.join(state, CONTEXT_CACHE)).decode("utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if key != context_key(repo, tip):
        return None
    return line.rstrip("\n")


def refresh_context(repo: Location, in_hook: bool = False, deadline: float | None = None) -> str:
    """Render the session-start output line ('' when there is nothing to inject) exactly as
    `git memory context` renders the text, and cache it. In a hook (`in_hook`) a stale or
    missing recall index is used as it is (a detached rebuild is started); elsewhere it is
    brought up to date first. `deadline`: see session_start_line."""
    from agent_memory.claude import context
    from agent_memory.committed import verdicts
    from agent_memory.committed.reviewed import reviewed_atoms
    from agent_memory.model.fastjson import additional_context
    from agent_memory.model.policy import check_context_size
    from agent_memory.store.recall import files as recall
    from agent_memory.store.recall.adopted import held_logs

    state, common, work = repo.state, repo.common, repo.work
    tip = read_ref(common, ATOMS_REF)
    if tip is None:
        raise LookupError(f"agent-memory is not initialised in {repo.top}")
    indexed, contested = _contested(state)
    if indexed is None or indexed != tip:
        unreadable = indexed is None and os.path.exists(recall.index_path(state))
        if in_hook:
            request_rebuild(repo)
        else:
            from agent_memory.gitio import repo as git
            from agent_memory.store.l1 import rebuild_recall_index

            rebuild_recall_index(git.repo_at(repo))
            indexed, contested = _contested(state)
            tip = read_ref(common, ATOMS_REF) or tip
        if unreadable:
            from agent_memory.gitio.state import log_error

            log_error("hook session-start: the recall index was unreadable: rebuilding it", repo.top)
    key = context_key(repo, tip)
    # Only what a tier's block shows a reviewer is injected, never a log line alone; and
    # nothing the commit guard refuses, even a line that reached the files around the hooks
    # (the verdicts are remembered, the guard loaded rarely).
    # Each log read from where the fold the per-prompt hook (or the last start) saved stopped:
    # a log that grew by a line costs a tail read, not the whole file (40 MB: ~1.5 s).
    home = memory_home_dir()
    logs = held_logs(state, [root for root in (work, home) if root], deadline)
    (l2, l2_unshown) = reviewed_atoms(work, "L2", logs[work] if work else None)
    (l3, l3_unshown) = reviewed_atoms(home, "L3", logs[home])
    for tier, root, found in attribute_trees(repo, home):
        if _converted(repo, tier, root, found, in_hook):  # not what a reviewer read: nothing of it
            (l2, l2_unshown) = ([], 0) if tier == "L2" else (l2, l2_unshown)
            (l3, l3_unshown) = ([], 0) if tier == "L3" else (l3, l3_unshown)
    l2, l3 = verdicts.shown(state, l2, l3)
    unshown = {"L2": l2_unshown, "L3": l3_unshown}
    ctx = context.build_context(l2, l3, contested, project_name(repo), unshown)
    line = ""
    if ctx.text:
        check_context_size(ctx.text)
        line = additional_context("SessionStart", ctx.text)
    # Cached only when rendered from an index (its oid is in the key) and nothing changed
    # while rendering; a missing index renders without contested tags, for this start only.
    if indexed is not None and context_key(repo, tip) == key:
        from agent_memory.gitio.state import replace_text

        replace_text(os.path.join(state, CONTEXT_CACHE), f"{key}\n{line}\n")
    return line


def attribute_trees(repo: Location, home: str, followed: list[str] | None = None,
                    ) -> list[tuple[str, str, list[tuple[str, str | None]]]]:  # fmt: skip
    """(tier, work tree, the attributes files git reads for its memory files) of the project
    and the global memory repo. `followed`: the project's config files with their includes,
    when the caller has walked them already (the cache key has)."""
    # (tier, work tree, common dir: info/attributes and config, git dir: its index)
    trees = [("L2", repo.work, repo.common, repo.git_dir), ("L3", home, os.path.join(home, ".git"), None)]
    out = []
    for tier, root, common, git_dir in trees:
        if not root:
            continue
        files, unscreened = _attributes_files(common, followed if common == repo.common else None)
        out.append((tier, root, attributes.sources(root, common, files, git_dir or common, unscreened)))
    return out


def _attributes_files(common: str, followed: list[str] | None = None) -> tuple[list[str], list[str]]:
    """(every file core.attributesFile may name, signatures of settings of it this reader
    cannot read): read from the config files and the files they include (`include.path`, and
    `includeIf` whatever its condition: all are candidates, each screened), and git's default
    file — which a value set later only may replace. A value beyond `_config_value` (escapes),
    or one set in the environment (`git -c`, GIT_CONFIG_*), is unscreened: git is asked."""
    values = [attributes.default_global_file()]
    unscreened = []
    for path in _config_files_followed(common) if followed is None else followed:
        try:
            text = _read_config(path)
        except OSError:
            continue
        except UnicodeDecodeError:
            text = ""
            unscreened.append(f"config:{path}")
        if "attributesfile" in text.lower():
            try:
                value = _config_value(text, "core", "attributesfile", includes=True)
            except ValueError:
                unscreened.append(f"config:{path}")
                continue
            if value:
                values.append(os.path.expanduser(value))
    for name, value in os.environ.items():
        if (name == "GIT_CONFIG_PARAMETERS" or name.startswith("GIT_CONFIG_KEY_")) and "attributesfile" in value.lower():
            unscreened.append(f"env:{name}={value}")
    return list(dict.fromkeys(values)), unscreened


def _read_config(path: str) -> str:
    """A git config file's text as a text-mode `open` reads it (newlines translated) — only
    from a regular file: /dev/zero linked in a config's place was read by every session start
    for ever (all memory), a FIFO waited on for ever; git refuses the one and hangs on the
    other itself. OSError for either (the file is left out, as an unreadable one is)."""
    from agent_memory.store.recall.files import read_state_file

    return read_state_file(path).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _config_files_followed(common: str, depth: int = 10) -> list[str]:
    """The config files git reads (`_git_config_files`) and, after each, the files its
    `[include]` and `[includeIf "…"]` sections name (a relative path is relative to the file
    naming it, `~/` is home), as git follows them, to its depth limit of 10; conditions are
    not judged (a superset: every file that may apply)."""
    out: list[str] = []

    def visit(path: str, level: int) -> None:
        out.append(path)
        if level >= depth:
            return
        try:
            text = _read_config(path)
        except (OSError, UnicodeDecodeError):
            return
        if "include" not in text.lower():
            return
        for named in _include_paths(text):
            named = os.path.expanduser(named)
            visit(named if os.path.isabs(named) else os.path.join(os.path.dirname(path), named), level + 1)

    for path in _git_config_files(common):
        visit(path, 0)
    return out


def _include_paths(text: str) -> list[str]:
    """The `path` values of one config file's include sections (plain or quoted values)."""
    found, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and "]" in line:
            inside = line[1 : line.index("]")].strip().lower().startswith("include")
            line = line[line.index("]") + 1 :].strip()
            if not line:
                continue
        name, eq, value = line.partition("=")
        if inside and eq and name.strip().lower() == "path":
            value = value.strip()
            if value.startswith('"') and value.find('"', 1) > 0:
                value = value[1 : value.find('"', 1)]
            else:
                value = value.split("#", 1)[0].split(";", 1)[0].strip()
            if value:
                found.append(value)
    return found


def _converted(repo: Location, tier: str, root: str, found: list[tuple[str, str | None]], in_hook: bool) -> bool:
    """Whether a memory file of the tier whose work tree is `root` goes through a filter or an
    encoding (or git could not tell, when an attributes file names one): then the tier is not
    injected, and errors.log says so in one line."""
    bad = attributes.converted(root, found)
    if bad == {}:
        return False
    from agent_memory.gitio.state import log_error

    what = (f"{attributes.describe(bad)} in {root}: a memory file git converts is not what a reviewer read"
            if bad else f"the attributes of the memory files in {root} could not be checked (git check-attr failed)")
    log_error(f"{'hook session-start' if in_hook else 'session-start context'}: the {tier} memory was not injected: "
              f"{what}; `git memory validate` says how to fix it", repo.top)  # fmt: skip
    return True


def _contested(state: str) -> tuple[str | None, dict[str, str]]:
    """(the tip the recall index stands at, its contested map): from the small sidecar when
    it matches the index (the index itself grows with the store), else from the
    index; (None, {}) when there is no readable index."""
    from agent_memory.store.recall.files import contested_at_index

    found = contested_at_index(state)
    if found is not None:
        return found
    # the index itself: only when the sidecar is behind
    from agent_memory.store.recall.index import contested_dates, load_index

    index = load_index(state)
    return (index.source_oid, contested_dates(index)) if index is not None else (None, {})


# --- the project name without running git ------------------------------------------------------


def default_project_name(common: str, work: str | None) -> str:
    """gitio.repo.default_project_name on strings."""
    from agent_memory.model.controls import folder_project_name

    common = os.path.normpath(common)
    if os.path.basename(common) == ".git" and os.path.basename(os.path.dirname(common)):
        return folder_project_name(os.path.basename(os.path.dirname(common)))
    top = os.path.basename(os.path.normpath(work or common))
    return folder_project_name(top.removesuffix(".git") or "project")


def _config_value(text: str, section: str, key: str, includes: bool = False) -> str | None:
    """The last `key` of `[section]` in one git config file, for plain values; raises
    ValueError for anything this reader does not handle (includes — unless `includes`: the
    caller follows them —, escapes, continuations)."""
    found = None
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            head = line[1 : line.index("]")].strip()
            if head.lower().startswith("include") and not includes:
                raise ValueError("include")
            current = head.lower()
            line = line[line.index("]") + 1 :].strip()
            if not line:
                continue
        name, eq, value = line.partition("=")
        if current != section or name.strip().lower() != key:
            continue
        value = value.strip()
        if not eq or "\\" in value:
            raise ValueError("not a plain value")
        if value.startswith('"'):
            end = value.find('"', 1)
            if end < 0:
                raise ValueError("quote")
            value = value[1:end]
        else:
            for mark in ("#", ";"):
                value = value.split(mark, 1)[0]
            value = value.strip()
        found = value
    return found


def project_name(repo: Location) -> str:
    """`git config memory.project`, else the default name (gitio.repo.project_of), read from
    the config files directly; git is asked (in `repo`, never a repository found again) only
    when a file is beyond this reader."""
    common, work = repo.common, repo.work
    if not (os.environ.get("GIT_CONFIG_COUNT") or os.environ.get("GIT_CONFIG_PARAMETERS")):
        try:
            value = None
            for path in _git_config_files(common):
                try:
                    text = _read_config(path)
                except OSError:
                    continue
                if "worktreeconfig" in text.lower():
                    raise ValueError("worktree config")
                value = _config_value(text, "memory", "project") or value
            if value:
                from agent_memory.model.controls import plain_name

                return plain_name(value)
            return default_project_name(common, work)
        except (ValueError, UnicodeDecodeError):
            pass
    from agent_memory.gitio import repo as git

    return git.project_of(git.repo_at(repo))


def warm(repo: Location) -> None:
    """Re-render the cached context after a change to the committed tiers, so the next session
    starts on the fast path. A cache: a failure is only logged."""
    if repo.work is None:
        return
    try:
        refresh_context(repo)
    except Exception as exc:  # noqa: BLE001
        from agent_memory.gitio.state import log_error

        log_error(f"session-start context not refreshed: {type(exc).__name__}: {exc}", repo.work)
