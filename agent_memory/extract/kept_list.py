"""A list the person asks to be kept in CLAUDE.md or memory, said in another language:
"CLAUDE.mdを作成してください。以下のルールを含めてください：\n- …\n- …", "在CLAUDE.md中添加以下规则：\n1. …",
"CLAUDE.md에 다음 규칙을 추가해줘:\n- …", "Adicione ao CLAUDE.md as seguintes regras:\n- …".

Each item is one of the person's rules or facts, as each line of a "#" note is (English lists
asked to be kept are read by prepare.users_text / paste.read_paste, whose items the English rules
read). The language rules skip list items elsewhere (a pasted document's items are somebody's
text), so here each item is read on its own; one no rule reads is kept as the person wrote it,
labelled "Remember:" as the language remember rules label what is asked to be kept.
"""

from __future__ import annotations

import re

from agent_memory.extract.finish import Candidate
from agent_memory.extract.rules.lang_words import non_english
from agent_memory.extract.rules.languages import language_claims
from agent_memory.extract.text import shorten, unmask
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# The line that asks: it names the memory file (or memory) and a verb of adding or including in
# the person's language, and introduces what follows with a colon.
_INTRO = _lazy(
    r"(?:claude\.md|agents\.md|メモリ|記憶|记忆|메모리|memória|mémoire|memoria|gedächtnis|память)"
    r"[^\n]*(?:含め|追加|追記|記載|書いて|入れて|添加|加入|写入|寫入|加到|写到|寫到|记录|記錄|추가|작성|넣어|"
    r"adicion[ea]|inclua|ajoute|inclus|añade|agrega|incluye|füge|ergänze|добав|запиши|внеси)"
    r"[^\n]*[:：]\s*$",
    re.I,
)
_ITEM = _lazy(r"^\s*(?:[-*•・]|\d{1,2}[.)、．])\s*(\S.*?)\s*$")
# An item said as a rule: a word of obligation, ban or habit in the languages read.
_RULE_WORD = _lazy(
    r"必ず|しない|しないで|禁止|不要|必须|必須|别|別|不得|항상|절대|하지|금지|"
    r"\b(?:always|never|must|sempre|nunca|não|toujours|jamais|ne|siempre|no|immer|nie|nicht|"
    r"всегда|никогда|нельзя|не)\b",
    re.I,
)


# An asking is one short line; a longer one is somebody's paragraph (and a long line with many
# memory words would cost the search a scan per word).
_MAX_INTRO = 300


def _intro_at(lines: list[str]) -> int | None:
    return next(
        (i for i, ln in enumerate(lines) if len(ln) <= _MAX_INTRO and _INTRO.search(ln) and non_english(ln)),
        None,
    )


def asks_to_keep_a_list(statement: str) -> bool:
    """Whether `statement` asks for a list to be kept (the durability gate reads it as the
    "remember" said of each item)."""
    lines = statement.split("\n")
    start = _intro_at(lines)
    return start is not None and any(_ITEM.match(ln) for ln in lines[start + 1 :])


def kept_list_items(masked: str, spans: list[str]) -> list[Candidate]:
    """The items of a non-English list the person asks to be kept (see above), or []."""
    lines = masked.split("\n")
    start = _intro_at(lines)
    if start is None:
        return []
    found: list[Candidate] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if not item:
            break  # the list ended: what follows is the person talking again
        said = item.group(1)
        if not non_english(said) or len(said) < 4:
            continue
        hits = language_claims(said)
        if hits:
            found += [
                Candidate(shorten(unmask(c, spans)), k, "stated", f"language.{sub}") for c, k, sub in hits
            ]
            continue
        kind = "constraint" if _RULE_WORD.search(said) else "fact"
        found.append(Candidate(shorten(unmask(f"Remember: {said}", spans)), kind, "stated", "memory.kept_list_item"))
    return found
