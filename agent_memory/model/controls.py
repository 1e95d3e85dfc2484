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


def plain_name(name: str) -> str:
    """A name taken from a folder or a setting (a project's), as one line of text that a
    person, a context header and the commit guard can take: bytes that are not UTF-8 (held as
    lone surrogates) become U+FFFD, a control character or any run of whitespace one space,
    an invisible format character (U+202E, U+200B) nothing. A folder unpacked from an archive
    can be named `x<ESC>[8m` or hold a line break; as a project name either made every log line
    of the project one the guard refuses."""
    if name.isprintable() and name.strip() == name:
        return name
    import unicodedata

    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    kept = (" " if is_control(ch) or ch.isspace() else "" if unicodedata.category(ch) == "Cf" else ch for ch in text)
    return " ".join("".join(kept).split()) or "project"
