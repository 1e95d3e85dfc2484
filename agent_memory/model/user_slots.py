"""The user's one-value slots — their OS, shell, editor, the language to answer them in — and
the names each takes, by family (mac, macOS and OS X are one; Ubuntu counts for Linux). What
store/slots.py reads a contradiction by ("User is on macOS" vs "User is on Linux now"), and what
`slot_spellings` reads one fact said in another of the extractor's spellings by ("I use Windows"
and "I'm on Windows": "User uses Windows" and "User is on Windows"). No imports: SessionStart's
cold path reads this."""

from __future__ import annotations

OS = "os"
SHELL = "shell"
EDITOR = "editor"
REPLY_LANGUAGE = "reply-language"


def _lexicon(families: dict[str, str]) -> dict[tuple[str, ...], str]:
    return {
        tuple(name.split()): family
        for family, names in families.items()
        for name in names.split(",")
        if name
    }


# name (one or two words, casefolded) → family
NAMES: dict[str, dict[tuple[str, ...], str]] = {
    OS: _lexicon({
        "macos": "macos,mac,osx,os x,mac os,macbook",
        "linux": "linux,ubuntu,debian,fedora,arch,arch linux,manjaro,nixos,gentoo,centos,rhel,"
                 "opensuse,kubuntu,xubuntu,popos,pop!_os",
        "windows": "windows,win10,win11",
    }),
    SHELL: _lexicon({
        "bash": "bash", "zsh": "zsh", "fish": "fish", "powershell": "powershell,pwsh",
        "nushell": "nushell", "tcsh": "tcsh,csh", "ksh": "ksh", "xonsh": "xonsh",
    }),
    EDITOR: _lexicon({
        "vim": "vim,vi,nvim,neovim", "emacs": "emacs,spacemacs,doom emacs",
        "vscode": "vscode,vs code,visual studio code", "cursor": "cursor", "zed": "zed",
        "helix": "helix,hx", "sublime": "sublime,sublime text", "nano": "nano",
        "jetbrains": "intellij,intellij idea,pycharm,webstorm,goland,clion,rider,phpstorm,rubymine",
    }),
}  # fmt: skip
# Names of a language, in English and as other languages write them (a "Language: …" claim keeps
# the user's own words: "Antworte auf Deutsch", "Réponds en français", "请用中文回答").
LANGUAGES = _lexicon({
    "en": "english,englisch,anglais,inglés,ingles,inglese,inglês,английском,английский,英语,英文,英語,영어",
    "de": "german,deutsch,allemand,alemán,aleman,alemão,tedesco,немецком,немецкий,德语,德文,ドイツ語,독일어",
    "fr": "french,français,francais,französisch,francés,francês,francese,французском,法语,法文,フランス語,프랑스어",
    "es": "castellano,spanish,español,espanol,spanisch,espagnol,espanhol,spagnolo,испанском,西班牙语,スペイン語,스페인어",
    "pt": "pt-br,portuguese,português,portugues,portugiesisch,portugais,portugués,portoghese,португальском,葡萄牙语,ポルトガル語",
    "it": "italian,italiano,italienisch,italien,итальянском,意大利语,イタリア語",
    "ru": "russian,русском,русский,russisch,russe,ruso,russo,俄语,俄文,ロシア語,러시아어",
    "zh": "chinese,chinesisch,chinois,chino,chinês,cinese,китайском,中文,汉语,漢語,中国語,중국어",
    "ja": "japanese,japanisch,japonais,japonés,japonês,giapponese,японском,日本語,日语,日文,일본어",
    "ko": "korean,koreanisch,coréen,coreano,корейском,한국어,韩语,韓国語",
})  # fmt: skip
# The extractor's spellings of one slot fact with nothing more said ("I'm on Windows", "I use
# Windows", "my OS is Windows"): one fact, so one atom that recurs. Only the same name is one
# fact ("User is on Ubuntu" says more than "User is on Linux"), and only said bare: "User is on
# Windows w/ PowerShell" says more than "User is on Windows" and stays its own atom. No editor:
# "User uses vim" may hold beside another editor, "The user's editor is vim" says it is the one
# (store/slots.py), so neither is a sighting of the other.
_SPELLINGS = {
    OS: ("user is on {}", "user uses {}", "user works on {}", "the user's os is {}"),
    SHELL: ("user uses {}", "user uses {} shell", "user is on {}", "the user's shell is {}"),
}
_ANSWER_SPELLINGS = ("answer in {}", "answer the user in {}")


def slot_spellings(text: str) -> list[str]:
    """The other spellings of `text` (normalized) when it is one slot fact said bare, else []."""
    out: list[str] = []
    for slot, spellings in (*_SPELLINGS.items(), (REPLY_LANGUAGE, _ANSWER_SPELLINGS)):
        names = LANGUAGES if slot == REPLY_LANGUAGE else NAMES[slot]
        for spelling in spellings:
            head, _, tail = spelling.partition("{}")
            if text.startswith(head) and text.endswith(tail) and len(text) > len(head) + len(tail):
                value = text[len(head) : len(text) - len(tail)]
                if tuple(value.split(" ")) in names:
                    out += [other.format(value) for other in spellings if other.format(value) != text]
    return sorted(set(out) - {text})
