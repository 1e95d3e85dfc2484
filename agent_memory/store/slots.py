"""One-value slots of a claim, for the contradiction detector (store/contradictions.py): a
fact about the user with room for one value (their OS, shell, editor; the language to answer
them in), and a tool given up ("Never use poetry any more", "Don't: 不要再用 poetry 了").

Read by hand, without `re`: SessionStart judges L2/L3 lines for contradictions on its cold
path. Every reader is deliberately narrow (a false contradiction freezes two good claims):

- the subject is the user, said as the extractor says it ("User is on X", "User uses X",
  "The user's <os|shell|editor> is X", "Answer [the user] in X"), or a claim the extractor
  labelled for its kind in another language ("Environment: …", "Language: …"); "Our CI
  runners are Ubuntu" has another subject and has no slot;
- the value is a known name (the lexicons below) right where the claim puts it, and what
  follows it may only say when ("now", a version) or start another clause ("; use apt",
  "(Ubuntu 24.04)", "so …", "w/ …"): "User is on macOS at work" or "User uses vim for commit
  messages" hold beside another value and have no slot;
- the claim names no second value of that slot ("User uses VS Code with vim keybindings",
  "User is on macOS and Linux" have none);
- a claim naming WSL has no OS (it is Windows and Linux at once);
- values are compared by family: "User is on Ubuntu" and "User is on Linux" agree, as do vim
  and neovim, pwsh and PowerShell, "Deutsch" and "German".

A tool is refused when the whole claim says no more than "don't use X [any more]", in
English ("Never use poetry any more", "Don't keep using poetry"; for a job, "Never use poetry for
packaging anymore" refuses it for that job only) or behind a polarity label in another
language, where every other word is one of a few words of "don't / use / any more"
(DROP_WORDS, DROP_CHARS): "Don't: 不要再用 poetry 发布了" (don't publish with poetry any more)
keeps a job, so it refuses nothing here. Said with "any more" ("again", "stop using", 再, mehr,
más …) the tool is given up: that meets every choice of it. A bare "Never use print" may be the
general rule beside an exception ("Use print for the CLI's output"), so it meets only a choice
of the tool for no stated job.
"""

from __future__ import annotations

from agent_memory.model.atom import normalize
from agent_memory.model.user_slots import EDITOR, LANGUAGES, NAMES, OS, REPLY_LANGUAGE, SHELL

# The noun of "The user's <noun> is X" that names each slot.
_SLOT_NOUNS = {
    OS: {("os",), ("operating", "system"), ("machine",), ("laptop",), ("computer",), ("platform",)},
    SHELL: {("shell",), ("default", "shell"), ("login", "shell")},
    EDITOR: {("editor",), ("text", "editor"), ("ide",)},
}
# What may follow the value without making it a qualified one: when it holds, a version.
_WHEN = frozenset({"now", "nowadays", "exclusively", "only"})
# A word that starts another clause (what follows it is about something else).
_CLAUSE_OPENERS = frozenset({"so", "w/", "with", "-", "\u2014", "\u2013", "because", "since", "but"})
_PUNCT = ".,;:!?\"'`()[]{}"
_ANSWER_VERBS = frozenset({"answer", "reply", "respond"})
_ANSWER_WHOM = ((), ("me",), ("the", "user"), ("them",), ("to", "me"), ("to", "the", "user"))


def _words(text: str) -> list[str]:
    return text.split()


def _bare(word: str) -> str:
    return word.strip(_PUNCT)


def _name_at(words: list[str], at: int, names: dict[tuple[str, ...], str]) -> tuple[str, int] | None:
    """(family, index after the name) of a known name starting at words[at]."""
    for size in (3, 2, 1):
        part = words[at : at + size]
        if len(part) < size:
            continue
        bare = tuple(_bare(w) for w in part)
        # a name is one phrase: no clause mark inside it ("mac, os" is not "mac os")
        if bare in names and all(w == b for w, b in zip(part[:-1], bare[:-1], strict=True)):
            return names[bare], at + size
    return None


def _families_named(text: str, names: dict[tuple[str, ...], str]) -> set[str]:
    """The families of every known name in `text`: a word or two of it, or (a name in a script
    without spaces) a substring."""
    words = [_bare(w) for w in text.split()]
    found = set()
    for at in range(len(words)):
        hit = _name_at(words, at, names)
        if hit is not None:
            found.add(hit[0])
    found.update(family for name, family in names.items() if _spaceless(name[0]) and name[0] in text)
    return found


def _spaceless(name: str) -> bool:
    """A name in a script written without spaces (CJK, kana, hangul): found inside words."""
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in name)


def _tail_ok(words: list[str], at: int, value_word: str) -> bool:
    """Nothing after the value that qualifies it: the claim ends, or says when, or starts
    another clause."""
    if value_word[-1:] in ",;:(" or value_word[-1:] == ")":
        return True
    while at < len(words):
        word = words[at]
        bare = _bare(word)
        if word.startswith("(") or bare in _CLAUSE_OPENERS or word in _CLAUSE_OPENERS:
            return True
        if bare in _WHEN or (bare and all(ch.isdigit() or ch == "." for ch in bare)):
            if word[-1:] in ",;:":
                return True
            at += 1
            continue
        return False
    return True


def _english_setting(words: list[str]) -> tuple[str, str] | None:
    """(slot, family) of "user is on X" / "user uses X" / "the user's <noun> is X"."""
    at: int | None = None
    noun: tuple[str, ...] | None = None
    if words[:3] in (["user", "is", "on"], ["user", "works", "on"]):
        at = 3
    elif words[:2] == ["user", "uses"]:
        at = 2
    else:
        start = 2 if words[:2] == ["the", "user's"] else 1 if words[:1] == ["user's"] else 0
        if start:
            for size in (2, 1):
                if len(words) > start + size and words[start + size] == "is":
                    noun, at = tuple(words[start : start + size]), start + size + 1
                    break
    if at is None:
        return None
    if at < len(words) and words[at] in ("a", "an"):
        at += 1
    for slot, names in NAMES.items():
        hit = _name_at(words, at, names)
        if hit is None:
            continue
        family, end = hit
        if noun is not None and noun not in _SLOT_NOUNS[slot]:
            return None
        if noun is None and end < len(words) and _bare(words[end]) == slot:
            end += 1  # "User uses fish shell"
        if not _tail_ok(words, end, words[end - 1]):
            return None
        if _families_named(" ".join(words), names) != {family}:
            return None  # a second value named: "User uses VS Code with vim keybindings"
        if slot == EDITOR and noun is None and not _WHEN.intersection(_bare(w) for w in words[end:]):
            # many people use two editors: "User uses vim" and "User uses VS Code" both hold;
            # only "the user's editor is X" or "uses X now / only" says it is the one
            return None
        return slot, family
    return None


def _answer_language(words: list[str]) -> str | None:
    """The family of "answer [the user] in X [only]", else None."""
    if not words or words[0] not in _ANSWER_VERBS:
        return None
    for whom in _ANSWER_WHOM:
        if tuple(words[1 : 1 + len(whom)]) == whom and words[1 + len(whom) : 2 + len(whom)] == ["in"]:
            rest = [_bare(w) for w in words[2 + len(whom) :]]
            if rest and rest[1:] in ([], ["only"], ["now"]):
                return LANGUAGES.get((rest[0],))
    return None


def user_settings(claim: str) -> dict[str, str]:
    """{slot: family} the claim gives the user (empty when none)."""
    text = normalize(claim)
    label, colon, body = text.partition(": ")
    if " wsl" in f" {text}":
        return {}  # Windows and Linux at once: no one value
    if colon and label == "environment":
        out = {}
        for slot, names in NAMES.items():
            families = _families_named(body, names)
            if len(families) == 1:
                out[slot] = next(iter(families))
        return out
    if colon and label == "language":
        families = _families_named(body, LANGUAGES)
        return {REPLY_LANGUAGE: next(iter(families))} if len(families) == 1 else {}
    words = _words(text)
    language = _answer_language(words)
    if language is not None:
        return {REPLY_LANGUAGE: language}
    found = _english_setting(words)
    return dict([found]) if found is not None else {}


# --- a tool given up -----------------------------------------------------------------------

_DROP_HEADS = (("never", "use"), ("don't", "use"), ("do", "not", "use"), ("don't", "keep", "using"),
               ("stop", "using"))  # fmt: skip
_DROP_TAILS = (("any", "more"), ("anymore",), ("ever", "again"), ("again",), ("now",), ())  # () last: the job ends before a tail
_GIVEN_UP_HEADS = (("don't", "keep", "using"), ("stop", "using"))
# The words and characters of "any more" among those: said, the tool is given up, not refused.
_NO_MORE = frozenset({"más", "mas", "mais", "plus", "mehr", "più", "больше", "再", "もう"})
# Words of "don't / use / any more" in the languages a polarity label is put on (extract.rules
# .languages): a labelled claim made of these and one tool's name gives the tool up.
DROP_WORDS = frozenset(
    str.split(
    "no uses use usar usas utilices nunca más mas ya "  # es
    "não nao usa mais "  # pt
    "n'utilise n'utilisez ne utilise utilisez utiliser plus jamais pas "  # fr
    "verwende verwendet benutze benutzt nutze nutzt kein keine nicht mehr nie niemals "  # de
    "non usare più mai "  # it
    "не используй используйте используем больше никогда"  # ru
    )
)  # fmt: skip
# The same for a script without spaces: 不要/别/不再 用/使用 再 … 了 (zh), もう…使わないで (ja).
DROP_CHARS = frozenset("以后後今不要别別再用使了啦吧也就。！!，,、もうを使わないでくださいね")
_POSITIVE_LABELS = frozenset({"use", "uses", "stack", "decided"})
_NEGATIVE_LABELS = frozenset({"don't", "never", "decided not to use", "from now on, don't"})
# What opens a job after the tool ("… for packaging"), as store/contradictions reads a choice's.
_JOB_WORDS = frozenset(("for", "in", "on", "to", "when", "with", "across"))
_TOOL_CHARS = frozenset(".@/+#-_")


def _latin_names(text: str) -> list[str]:
    """The runs of ASCII letters, digits and tool characters in `text` (a tool's name inside
    text of a script without spaces: "用 poetry 管理依赖", "用poetry管理")."""
    out, run = [], []
    for ch in text + " ":
        if ch.isascii() and (ch.isalnum() or ch in _TOOL_CHARS):
            run.append(ch)
        else:
            if run and any(c.isalpha() for c in run):
                out.append("".join(run).strip(".-"))
            run = []
    return out


def tool_dropped(claim: str) -> tuple[str, str, bool] | None:
    """(tool, job, given up) the claim refuses: job "" when the tool goes whole ("Never use
    poetry any more"), else the purpose it goes for ("Never use poetry for packaging anymore"
    gives (poetry, "for packaging", True)); given up when said with "any more" or the like.
    None when it refuses none."""
    text = normalize(claim)
    label, colon, body = text.partition(": ")
    if colon and label in _NEGATIVE_LABELS:
        tool = _labelled_tool(body, dropping=True)
        if tool is None:
            return None
        said = body.replace(tool, " ")
        return tool, "", any(word in _NO_MORE for word in said.split()) or "再" in said or "もう" in said
    words = [w.strip("`") for w in text.split()]
    for head in _DROP_HEADS:
        if tuple(words[: len(head)]) != head or len(words) <= len(head) or not words[len(head)]:
            continue
        tool, rest = words[len(head)], words[len(head) + 1 :]
        for tail in _DROP_TAILS:
            job = rest[: len(rest) - len(tail)]
            if tuple(rest[len(job) :]) == tail and (not job or (job[0] in _JOB_WORDS and len(job) > 1)):
                return tool, " ".join(job), bool(tail) or head in _GIVEN_UP_HEADS
        return None
    return None


def tool_chosen(claim: str) -> str | None:
    """The one tool a labelled claim in another language chooses ("Use: 用 poetry 管理依赖"),
    else None (English choices are read by store/contradictions._choice)."""
    label, colon, body = normalize(claim).partition(": ")
    return _labelled_tool(body, dropping=False) if colon and label in _POSITIVE_LABELS else None


def _labelled_tool(body: str, *, dropping: bool) -> str | None:
    if any(_spaceless(ch) for ch in body):
        names = set(_latin_names(body))
        if len(names) != 1:
            return None
        [name] = names
        if dropping:
            said = body.replace(name, " ")
            if any(not ch.isspace() and ch not in DROP_CHARS for ch in said):
                return None  # more is said than "don't use X any more": a job, a place
        return name
    if not dropping:
        return None  # a choice said in a spaced language: its purpose is not read here
    rest = [w for w in (_bare(w) for w in body.split()) if w and w not in DROP_WORDS]
    return rest[0] if len(rest) == 1 else None
