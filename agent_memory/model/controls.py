"""Control characters in claims: kept out of what is stored, shown escaped wherever text is
displayed.

A terminal acts on C0 controls, DEL and C1 controls instead of printing them: `ESC [ 8 m`
hides the text after it, `\\r` returns to the line's start so later text covers earlier
text, OSC sequences retitle the window or write links. A claim holding one (Claude's own
memory files are written by the model; a cloned repository's `.memory/adopted.log` by anyone)
would show a reviewer harmless text while the hidden part is adopted. So claims are built
without them (`replace_controls`, in `atom.new_atom`), and everything that shows a claim shows
any that an older version or a hand stored as `\\x1b` (`show_controls`).

No `re`: the cold session start and the per-prompt recall render claims through here.
"""

# Controls that are only text in a claim's JSON string (the guard's `control-character` rule
# lets them through there): the renderer makes them spaces.
CLAIM_TEXT_CONTROLS = "\n\t"


def is_control(ch: str) -> bool:
    """C0 (tab and newline included), DEL or C1."""
    return ch < " " or "\x7f" <= ch <= "\x9f"


def has_controls(text: str, keep: str = "") -> bool:
    # isprintable() is False for every control character and True for most text: one C-speed
    # pass decides nearly every string.
    return not text.isprintable() and any(is_control(ch) and ch not in keep for ch in text)


def replace_controls(text: str) -> str:
    """`text` as a claim may store it: a control that is whitespace (tab, newline, `\\x1c`–`\\x1f`,
    NEL) becomes a space, any other one U+FFFD. Neither is removed: `new_atom` gets text that
    redaction has judged, and dropping a character could join the halves of a secret it split."""
    if not has_controls(text):
        return text
    return "".join((" " if ch.isspace() else "\ufffd") if is_control(ch) else ch for ch in text)


def show_controls(text: str, keep: str = "") -> str:
    """`text` for display: every control character not in `keep` written as `\\xNN`."""
    if not has_controls(text, keep):
        return text
    return "".join(f"\\x{ord(ch):02x}" if is_control(ch) and ch not in keep else ch for ch in text)


# What renders as nothing, as a regex class: every format (Cf) character, and the variation
# selectors, Hangul fillers, the combining grapheme joiner, tag characters. The commit guard
# refuses them in memory files (redact/fold.invisible) but for what EMOJI_SEEN matches.
INVISIBLE_CLASS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u0600-\u0605\u06dd\u070f"
    "\u0890\u0891\u08e2\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
# An emoji's presentation selector, and the joiner inside an emoji sequence (🧑‍💻): seen.
EMOJI_SEEN = (
    "(?<=[\u2190-\u2bff\U0001f000-\U0001faff])[\ufe0e\ufe0f]"
    "|(?<=[\u2190-\u2bff\U0001f000-\U0001faff\ufe0f])\u200d(?=[\u2190-\u2bff\U0001f000-\U0001faff])"
)


def _class_ranges(cls: str) -> tuple[tuple[str, str], ...]:
    out, i = [], 0
    while i < len(cls):
        wide = cls[i + 1 : i + 2] == "-" and i + 2 < len(cls)
        out.append((cls[i], cls[i + 2] if wide else cls[i]))
        i += 3 if wide else 1
    return tuple(out)


_INVISIBLE_RANGES = _class_ranges(INVISIBLE_CLASS)


def _hidden(ch: str) -> bool:
    """Whether `ch` is in INVISIBLE_CLASS (without `re`, which the session start never loads)."""
    return not ch.isascii() and any(low <= ch <= high for low, high in _INVISIBLE_RANGES)


def plain_name(name: str) -> str:
    """A name taken from a folder or a setting (a project's), as one line of text that a
    person, a context header and the commit guard can take: bytes that are not UTF-8 (held as
    lone surrogates) become U+FFFD, a control character or any run of whitespace one space,
    an invisible character (U+202E, U+200B) nothing — only what the guard refuses: the joiner
    of an emoji sequence stays, or a name the guard took (`dev-🧑‍💻`) would change under a
    project that `init` named with it. A folder unpacked from an archive can be named
    `x<ESC>[8m` or hold a line break; as a project name either made every log line of the
    project one the guard refuses."""
    if name.isprintable() and name.strip() == name and (name.isascii() or not any(map(_hidden, name))):
        return name
    import re  # not on the session start of a plain name

    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    hidden, seen = re.compile(f"[{INVISIBLE_CLASS}]"), re.compile(EMOJI_SEEN)
    kept = (" " if is_control(ch) or ch.isspace() else "" if hidden.match(text, i) and not seen.match(text, i)
            else ch for i, ch in enumerate(text))  # fmt: skip
    return " ".join("".join(kept).split()) or "project"


# The longest project name an atom holds (`projectName.maxLength` in resources/atom.schema.json).
MAX_PROJECT_CHARS = 200


def folder_project_name(name: str) -> str:
    """A folder's name as a project name: `plain_name`, cut to MAX_PROJECT_CHARS. A folder's
    name may be 255 bytes; as a longer project name every atom of the project failed the
    schema (`remember`, capture: "project … is too long"), so nothing was ever stored."""
    return plain_name(name)[:MAX_PROJECT_CHARS].rstrip() or "project"


def argv_text(arg: str) -> str:
    """Text typed on a command line (a claim, a name) as the characters typed. In a locale that
    is not UTF-8 (`LC_ALL=C` without Python's UTF-8 mode) Python holds every byte of a UTF-8
    terminal's `über` as a lone surrogate: those bytes are decoded as UTF-8 here. Raises
    ValueError (UnicodeDecodeError) when they are not UTF-8."""
    if arg.isascii() or not any("\udc80" <= ch <= "\udcff" for ch in arg):
        return arg
    import os

    return os.fsencode(arg).decode("utf-8")
