"""The manual page where `man` looks, in an editable install too.

`git memory --help` never reaches this package: git turns it into `git help memory` and runs
`man git-memory`, and man finds the page from PATH (`<prefix>/bin` → `<prefix>/share/man`),
where a wheel installs it (pyproject's data-files). An editable install (`pip install -e`, the
README's development set-up) installed no data files (setuptools asks the distribution a
`has_data()` it lacks; the checkout's setup.py now gives it one, so such an install carries the
page from its first call), so man found no page and nothing of ours ran to say why. For an
editable install made before that, or by a backend that still skips data files, every
`git memory` command run from an editable install of its own
checkout links that checkout's `man/git-memory.1` where the wheel would have put it
(`<prefix>/share/man/man1/`), once: the link follows the page as the checkout changes. Nothing
else is ever written; a wheel's page, or any file there, is left alone; a failure is silent
(`git memory help` prints the same manual without man). Standard library only, and a stat
when the page is there.
"""

from __future__ import annotations

import os
import sys

PAGE = os.path.join("share", "man", "man1", "git-memory.1")


def link_manual(argv0: str, prefix: str | None = None, site: str | None = None) -> str | None:
    """The page linked for the launcher `argv0` (the `git-memory` script git ran), or None when
    nothing was done. `prefix` and `site` are this environment's (sys.prefix, its
    site-packages) unless given. Never raises."""
    try:
        return _link(argv0, prefix or sys.prefix, site)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _link(argv0: str, prefix: str, site: str | None) -> str | None:
    if os.name == "nt" or os.path.basename(argv0) != "git-memory":
        return None  # no man there; or not the launcher (`python -m agent_memory`, a test)
    root = os.path.dirname(os.path.dirname(os.path.abspath(argv0)))
    if os.path.realpath(root) != os.path.realpath(prefix):
        return None  # a launcher of another environment: its page is its own business
    target = os.path.join(root, PAGE)
    if os.path.exists(target):
        return None  # the wheel's page, or this link
    source = _editable_page(site)
    if source is None:
        return None
    if os.path.islink(target):
        os.unlink(target)  # left dangling by a checkout that moved
    elif os.path.lexists(target):
        return None
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.symlink(source, target)
    return target


def _editable_page(site: str | None) -> str | None:
    """The checkout's page when this environment holds an editable install of the checkout
    this package runs from (its PEP 610 `direct_url.json`); None for a wheel, or for a
    package run from elsewhere (PYTHONPATH) than the checkout installed."""
    if site is None:
        import sysconfig

        site = sysconfig.get_paths()["purelib"]
    names = [n for n in os.listdir(site) if n.startswith("agent_memory-") and n.endswith(".dist-info")]
    if len(names) != 1:
        return None
    with open(os.path.join(site, names[0], "direct_url.json"), encoding="utf-8") as fh:
        from agent_memory.model.fastjson import loads

        record = loads(fh.read())
    if not isinstance(record, dict) or not isinstance(record.get("dir_info"), dict):
        return None
    url = record.get("url")
    if not record["dir_info"].get("editable") or not isinstance(url, str) or not url.startswith("file://"):
        return None
    from urllib.parse import unquote, urlsplit

    checkout = unquote(urlsplit(url).path)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # agent_memory/
    if os.path.realpath(checkout) != os.path.realpath(os.path.dirname(package)):
        return None
    page = os.path.join(checkout, "man", "git-memory.1")
    return page if os.path.isfile(page) else None
