"""Plain facts people state about themselves and their setup, without any memory marker: what
they have installed ("I have OrbStack installed"), how long they have worked with something
("ten years of Java"), what they studied, what they work as, the tool or machine they are using
("I'm using WezTerm with fish"), their defaults ("set my default model to opus"), and what an
acronym of theirs stands for ("DE is diagnostic evaluation"), where their things are deployed
("I deploy everything to Netlify").

Each entry reads one clause from its start and keeps the user's own words for the thing named;
the claim says "User …" so it stands alone. A thing of the task at hand ("I installed the
dependencies", "I'm using this to test") names nothing lasting and yields nothing."""

from __future__ import annotations

import re

from agent_memory.extract.filters import DET, PRONOUNS, content_words, vague
from agent_memory.extract.rules.base import Check, Clause, ClauseRule, Make, cap
from agent_memory.extract.text import bare_phrase, words
from agent_memory.model.tool_families import KNOWN_TOOLS
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Where the fact ends inside a longer clause: a comma, or a run-on's next thought ("I have X
# installed, can I use it in …", "i'm using a gpd pocket with nixos, touchscreen is off").
_END = (
    r"(?:,?\s+(?:by the way|btw|fwiw|too|as well|also|currently|these days|nowadays))?"
    r"\s*[.!]*(?=$|[,;]\s|\s+(?:but|so|because|since|and\s+(?:i|we|now|it|then))\b)"
)
_DETS = frozenset(re.findall(r"\w+", DET))
_NAME = r"[\w\ue000\ue001.@/+#:-]+"
# The user's "my" and "our" (the user with their team or company) as a word of the sentence,
# never inside a word or a name: "army", "my-app", "~/my/dir", "our.domain", "oh my zsh" stay.
_FIRST_PERSON = _lazy(r"(?<![\w./\\-])(?<!\boh )(?:my|our)(?![\w./\\-])", re.I)


def _theirs(phrase: str) -> str:
    """The user's own words in the third person: "as my package manager" -> "as their …",
    "all our apps" -> "all their apps"."""
    return _FIRST_PERSON.sub("their", phrase)


# What the task at hand installs or uses: nothing of the user's setup is named.
_AT_HAND = _lazy(
    r"^(?:the\s+)?(?:node[_ ]modules|dependencies|deps|packages?|requirements|updates?|update|extensions?|plugins?|"
    r"modules?|libraries|library|app|application|tool|version|latest(?: version)?|script|file|"
    r"files|fix|patch|changes|everything|all|both|them|it|this|that|these|those|one|same)\b",
    re.I,
)


def _names_a_setup_thing(thing: str) -> bool:
    """A tool, product or machine by its name: a code span, a capital or a digit in it, a dotted
    name, or a known tool; "the docker" counts, "the app" does not."""
    bare = re.sub(rf"^{DET}\s+", "", thing.strip(), flags=re.I)
    if not bare or _AT_HAND.match(bare) or bare.split()[0].lower() in PRONOUNS:
        return False
    head = bare.split()[0].strip(",.").lower()
    return bool(
        re.search(r"\ue000|[A-Z]|\d|\w\.\w", bare)
        or head in KNOWN_TOOLS
        or re.match(r"^(?:docker|git|node|homebrew|brew|nvm|rust|go|java|vim|neovim|emacs)\b", head)
    )


# What an install can come with ("installed X with the C++ pack / the Android SDK").
_BUNDLE = r"pack|package|workload|extension|plugin|sdk|toolchain|support|components?"
# The user's own computer, by what it is called. Each rule adds its own: a VM is used as a build
# server, software is installed "on my system / in my environment".
_MACHINE = r"machine|computer|laptop|mac|pc|desktop|server|box|workstation"
# Where a thing is installed ("on my work laptop", "in my environment").
_INSTALL_PLACE = rf"my\s+(?:[\w-]+\s+){{0,2}}?(?:{_MACHINE}|system|environment)"
# What may follow the installed thing: where or how, and that it runs; nothing else.
_INSTALL_TAIL = (
    r"(?P<tail>(?:\s+(?:already|globally|locally|system-?wide))?"
    rf"(?:\s+(?:on|in)\s+{_INSTALL_PLACE})?"
    r"(?:\s+(?:via|with|through|using|from)\s+(?:homebrew|brew|npm|pip|pipx|uv|apt|snap|scoop|"
    rf"winget|choco|nix|cargo|asdf|mise|the installer|(?:the\s+)?[\w+#.-]+\s+(?:{_BUNDLE})))?"
    r"(?:\s+and\s+(?:it\s+|is\s+|it's\s+|its\s+)*(?:now\s+|already\s+)?running)?)" + _END
)
# "I have OrbStack installed (and running)", "I've got Docker Desktop installed on my mac".
_HAVE_INSTALLED = _lazy(
    rf"^i(?:'ve| have)\s+(?:already\s+|also\s+|now\s+|just\s+)?(?:got\s+)?"
    rf"(?P<thing>(?:{_NAME}\s+){{0,3}}?{_NAME})\s+(?:already\s+)?installed\b{_INSTALL_TAIL}",
    re.I,
)
# "I have installed the docker", "I've installed OrbStack and it is running".
_INSTALLED = _lazy(
    rf"^i(?:'ve| have)?\s+(?:already\s+|also\s+|now\s+|just\s+)?install(?:ed|er)\s+"
    rf"(?P<thing>(?:{_NAME}\s+){{0,3}}?{_NAME}){_INSTALL_TAIL}",
    re.I,
)
_NOT_A_THING = frozenset(
    ("not", "no", "never", "have", "has", "been", "got", "it", "them", "and", "wrong", "correctly")
)


def _installable(thing: str) -> bool:
    """ "I have X installed" names a thing of the user's even in lower case ("core-js", "kitty");
    a determiner other than "the" ("a", "my", "this") or a thing of the task names none."""
    bare = re.sub(r"^the\s+", "", thing, flags=re.I)
    return not (
        _AT_HAND.match(bare)
        or re.match(rf"^{DET}\b", bare, re.I)
        or content_words(bare) > 3
        or _NOT_A_THING & {w.lower() for w in thing.split()}
    )


def _installed(m: re.Match[str], c: Clause) -> str | None:
    thing, tail = m.group("thing"), m.group("tail") or ""
    if not _installable(thing):
        return None
    how = re.search(
        rf"\b(?:via|with|through|using|from)\s+(?:the\s+)?\S+(?:\s+(?:installer|{_BUNDLE}))?",
        tail,
        re.I,
    )
    where = re.search(rf"\bon\s+{_INSTALL_PLACE}\b", tail, re.I)
    extra = _theirs("".join(f" {bare_phrase(x.group(0))}" for x in (where, how) if x))
    thing = re.sub(r"^the\s+", "", bare_phrase(thing), flags=re.I)
    return f"User has {thing} installed{extra}"


# "I have 10 years of experience with Java", "I've got over a decade of experience in Python",
# "(I'm a / have been an) advanced developer with a decade of experience in java".
_YEARS = (
    r"(?:(?:over|about|around|almost|nearly|more than|roughly|some)\s+)?"
    r"(?:decade|(?:\d{1,2}\+?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|several|many)\s+(?:years?|yrs?))"
)
_EXPERIENCE = _lazy(
    rf"^(?:i(?:'ve| have)?\s+(?:got\s+|had\s+)?|"
    rf"(?:(?:i(?:'ve| have)|have|i(?:'m| am))\s+)?(?:been\s+)?(?:an?\s+)?(?:[\w-]+\s+){{0,3}}?"
    rf"(?:developer|engineer|programmer|dev|coder)\s+with\s+)"
    rf"(?:a\s+)?({_YEARS})(?:\s+of)?\s+(?:professional\s+|hands-on\s+|industry\s+)?experience\s+"
    rf"(?:in|with|of|using|writing|doing)\s+({_NAME}(?:\s+{_NAME}){{0,2}}?){_END}",
    re.I,
)
# The same inside a longer clause, said of the user ("new to X, have been a developer with a
# decade of experience in java"); never of someone else ("looking for a developer with …").
_EXPERIENCE_IN = _lazy(
    rf"\b(?:i(?:'m| am)|(?:i(?:'ve| have)\s+|have\s+)been)\s+(?:an?\s+)?(?:[\w-]+\s+){{0,3}}?"
    rf"(?:developer|engineer|programmer|dev|coder)\s+with\s+"
    rf"(?:a\s+)?({_YEARS})(?:\s+of)?\s+(?:professional\s+|hands-on\s+|industry\s+)?experience\s+"
    rf"(?:in|with|of|using|writing|doing)\s+({_NAME}(?:\s+{_NAME}){{0,2}}?){_END}",
    re.I,
)
# "I have no experience with Docker", "I don't have much experience in Rust".
_NO_EXPERIENCE = _lazy(
    rf"^i\s+(?:have\s+(no|zero|little|very little|limited|not much|hardly any|barely any)|"
    rf"(?:don't|do not)\s+have\s+(?:any|much|a lot of))\s+(?:real\s+|prior\s+|professional\s+)?"
    rf"experience\s+(?:in|with|of|using|writing|doing)\s+({_NAME}(?:\s+{_NAME}){{0,2}}?){_END}",
    re.I,
)


def _no_experience(m: re.Match[str], c: Clause) -> str | None:
    amount = (m.group(1) or "no").lower()
    amount = "no" if amount in ("zero", "not much", "hardly any", "barely any") else amount
    if amount == "no":  # the negation in words a reader (and the scorer) sees
        return f"User does not have experience with {bare_phrase(m.group(2))}"
    return f"User has {amount} experience with {bare_phrase(m.group(2))}"


# "I've been writing Rust for five years", "I've done Java for ten years".
_BEEN_DOING = _lazy(
    rf"^i(?:'ve| have)\s+(?:been\s+(?:doing|using|writing|coding in|programming in|working with|"
    rf"working in)|done|used|written|coded in|programmed in|worked with|worked in)\s+"
    rf"({_NAME}(?:\s+{_NAME}){{0,2}}?)\s+for\s+(?:the\s+(?:last|past)\s+)?({_YEARS})(?:\s+now)?{_END}",
    re.I,
)


def _experience_ok(what: str) -> bool:
    return (
        not vague(what)
        and not re.match(rf"^{DET}\b", what, re.I)
        and what.split()[0].lower() not in PRONOUNS
        and content_words(what) <= 3
    )


def _years(text: str) -> str:
    years = bare_phrase(text).lower()
    return f"a {years}" if years.endswith("decade") and " " not in years else years


def _experience(years: int, what: int) -> tuple[Make, Check]:
    """The claim and the check of an experience rule whose regex holds the years in group
    `years` and the tool or field in group `what`."""
    return (
        lambda m, c: (
            f"User has {_years(m.group(years))} of experience with {bare_phrase(m.group(what))}"
        ),
        lambda m, c: _experience_ok(m.group(what)),
    )


_YEARS_THEN_WHAT = _experience(1, 2)
_WHAT_THEN_YEARS = _experience(2, 1)


# "I studied bioengineering at UCLA", "I have a degree in physics".
_STUDIED = _lazy(
    r"^i\s+(?:studied|majored in|did my (?:degree|phd|ph\.d\.|masters?|master's|bachelors?|"
    r"bachelor's)\s+in|(?:have|hold)\s+an?\s+(?:degree|phd|ph\.d\.|masters?|master's|bachelors?|"
    r"bachelor's|bsc|msc|ba|bs|ms|ma)(?:\s+degree)?\s+in)\s+"
    r"((?:[\w-]+\s+){0,3}?[\w-]+)(?:\s+(?:at|from)\s+((?:[\w&.-]+)(?:\s+[\w&.-]+){0,3}?))?" + _END,
    re.I,
)


def _studied(m: re.Match[str], c: Clause) -> str | None:
    field, school = m.group(1), m.group(2)
    if re.match(
        rf"^(?:{DET}|it|them|how|what|why|up|on|about|for|with|hard|a lot|more)\b", field, re.I
    ):
        return None  # "I studied the code", "I studied how it works": no field of study
    if school and (school.split()[0].lower() in PRONOUNS or re.match(rf"^{DET}\b", school, re.I)):
        return None
    at = f" at {bare_phrase(school)}" if school else ""
    return f"User studied {bare_phrase(field)}{at}"


# A person's occupation by its noun (what "I'm a …" / "I work as a …" names).
_ROLE_NOUN = (
    r"(?:professor|lecturer|researcher|postdoc|phd student|phd candidate|grad student|student|"
    r"teacher|tutor|doctor|physician|nurse|surgeon|dentist|pharmacist|vet|veterinarian|therapist|"
    r"psychologist|lawyer|attorney|paralegal|accountant|bookkeeper|writer|author|journalist|"
    r"editor|copywriter|marketer|translator|linguist|artist|illustrator|designer|photographer|"
    r"musician|producer|filmmaker|video editor|trader|economist|statistician|mathematician|"
    r"physicist|biologist|chemist|scientist|programmer|coder|developer|dev|engineer|tester|"
    r"intern|analyst|architect|consultant|freelancer|contractor|product manager|project manager|"
    r"manager|director|founder|co-?founder|entrepreneur|solopreneur|cto|ceo|sysadmin|"
    r"administrator|admin|maintainer|hobbyist|recruiter|youtuber|streamer|blogger|creator|"
    r"coach|mechanic|electrician|technician|farmer|chef|pilot|officer|specialist|lead)"
)
# "I'm a professor of linguistics at Wake Forest", "I'm a PhD student in biology",
# "I work as a nurse", "I work as a data engineer at Spotify".
_ROLE = _lazy(
    rf"^i(?:'m| am|\s+(?:currently\s+|now\s+)?work\s+as)\s+(?:an?\s+)?"
    rf"((?:[\w-]+\s+){{0,3}}?{_ROLE_NOUN}s?)"
    rf"((?:\s+(?:of|in)\s+[\w&.-]+(?:\s+[\w&.-]+){{0,2}}?)?"
    rf"(?:\s+(?:at|for|with)\s+[\w&.-]+(?:\s+[\w&.-]+){{0,3}}?)?){_END}",
    re.I,
)


def _role(m: re.Match[str], c: Clause) -> str | None:
    role, rest = m.group(1), m.group(2)
    words_ = {w.lower() for w in f"{role} {rest}".split()}
    if words_ & (PRONOUNS | {"here", "case", "moment", "now", "today", "again", "not", "no"}):
        return None  # "I'm a developer in this case": said of the moment
    if re.match(rf"^(?:{DET}|not|no|just|only)\b", role, re.I):
        return None
    art = "an" if role[:1].lower() in "aeiou" else "a"
    return f"User is {art} {bare_phrase(role)}{' ' + bare_phrase(rest) if rest.strip() else ''}"


# "I'm using WezTerm with fish", "i'm using a gpd pocket 3 with nixos": the tool or machine in
# use, by its name; "I'm using this to test" / "the UXP version" name nothing lasting.
_USING = _lazy(
    rf"^i(?:'m| am)\s+(?:currently\s+|now\s+|also\s+|mostly\s+|mainly\s+|still\s+)?using\s+"
    rf"((?:an?\s+)?(?:{_NAME}\s+){{0,3}}?{_NAME})"
    rf"(?:\s+(with|on|and|as my|as the|as an|as a|as)\s+((?:{_NAME}\s+){{0,3}}?{_NAME}))?{_END}",
    re.I,
)


# "I'm using port 3000", "I'm using v2": a setting of the moment, not a tool.
_SETTING = _lazy(
    r"^(?:an?\s+)?(?:port|version|branch|line|option|step|method|function|v\d|localhost|https?:)",
    re.I,
)


# "I'm using this machine as a build server": what the user's own machine is for, a fact of the
# setup (the machine Claude runs on is no thing of the task).
_OWN_MACHINE = _lazy(rf"^(?:this|my)\s+(?:{_MACHINE}|vm)$", re.I)


# "… as an example", "… as a test for the demo": a use of the moment, not what the machine is for
_FOR_THE_MOMENT = _lazy(
    r"\b(?:example|test|demo|workaround|placeholder|starting point|stopgap|trial|experiment|now)\b",
    re.I,
)


def _using(m: re.Match[str], c: Clause) -> str | None:
    thing, joint, other = m.group(1), m.group(2), m.group(3)
    if joint and joint.lower() in ("as", "as a", "as an"):
        # only the user's own machine is said to be used as something for good
        if not (_OWN_MACHINE.match(thing) and other) or _FOR_THE_MOMENT.search(c.text[m.start(3) :]):
            return None
        return _theirs(f"User uses {thing.lower()} {joint.lower()} {bare_phrase(other)}")
    if re.match(r"^(?:the|this|that|my|your|our|these|those|some|any)\b", thing, re.I):
        return None
    # A runtime or IDE by its lower-case name counts too ("i am using xcode").
    if not (_names_a_setup_thing(thing) or thing.lower() in _RUNTIMES):
        return None
    if other and other.split()[0].lower() in PRONOUNS | {"the"}:
        return None
    if {w.lower() for w in thing.split()[1:]} & (PRONOUNS | _DETS):
        return None  # "I'm using GPT-4 for this task": the task at hand
    if re.search(r"\b(?:now|again|instead|here|today)$", thing, re.I) or _SETTING.match(thing):
        return None
    rest = f" {joint.lower()} {bare_phrase(other)}" if joint and other else ""
    return _theirs(f"User uses {bare_phrase(thing)}{rest}")


# "set my default model to opus 4.6", "make fish my default shell".
_DEFAULT_SET = _lazy(
    r"^(?:please\s+|pls\s+)?(?:set|make|change|switch)\s+my\s+default\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?:to|as)\s+(?:be\s+)?(\S+(?:\s+\S+){0,3}?)(?:\s+(?:in|on)\s+(?:my|the)\s+\S+(?:\s+\S+){0,2})?\s*$",
    re.I,
)


def _default_set(m: re.Match[str], c: Clause) -> str | None:
    setting, value = bare_phrase(m.group(1)), bare_phrase(m.group(2))
    if vague(value) or value.split()[0].lower() in PRONOUNS | {"the", "a"}:
        return None
    return f"User's default {setting.lower()} is {value}"


# "DE is diagnostic evaluation", "PR stands for purchase request": an acronym of the user's own,
# its words' initials spelling it out (no other shape reads as a definition this surely).
_ACRONYM = _lazy(
    r"^(?:the\s+)?([A-Z][A-Za-z]{1,5}?)s?\s+(?:is|means|stands for|=)\s+(?:an?\s+|the\s+)?"
    r"([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){1,6})$"
)
_MINOR = frozenset(("of", "and", "for", "the", "to", "in", "on", "a", "an", "&"))


def _acronym_ok(m: re.Match[str], c: Clause) -> bool:
    short, long = m.group(1), m.group(2)
    if sum(ch.isupper() for ch in short) < 2:
        return False
    initials = "".join(w[0] for w in long.split() if w.lower() not in _MINOR).lower()
    parts = "".join(w[0] for w in re.split(r"[\s-]+", long) if w.lower() not in _MINOR).lower()
    return short.lower() in (initials, parts)


# "my name is Ana Souza", "my last name is Dallenger": the name by its capital letters.
_MY_NAME = _lazy(
    r"^(?i:my)\s+(?i:(first|last|full|given|family|nick)\s*)?(?i:name)\s+(?i:is)\s+"
    r"([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})" + _END
)
# "my obsidian vault is D:\\Notes\\Vault", "the folder for obsidian will be D:\\OneDrive\\…": where
# a place of the user's is, as a path (a drive, the home folder or an absolute path).
_PLACE_NOUN = (
    r"(?:vault|vaults|folder|directory|dir|drive|repo|repository|workspace|home|projects|notes|"
    r"dotfiles|config|configs|project path|project root|path)"
)
_PLACE_IS = _lazy(
    rf"^(my|the|our)\s+((?:[\w-]+\s+){{0,2}}?{_PLACE_NOUN}(?:\s+for\s+[\w-]+(?:\s+[\w-]+)?)?)\s+"
    rf"(?:is|are|will be|should be|must be|=)\s*:?\s+(?:the\s+|in\s+|at\s+)?"
    rf"((?:[A-Za-z]:\\|~/|/(?:home|users|mnt|opt|srv|data|volumes)/|"
    rf"(?:https?://)?(?:www\.)?(?:github|gitlab|bitbucket|codeberg)\.(?:com|org)/)"
    rf"\S*(?:\s+(?!and\b|but\b|so\b)\S+)*?)"
    rf"\s*[.!]*(?=$|,\s|;\s|\s+(?:and|but|so)\s)",
    re.I,
)


# "this is the C:\\Users\\me\\Notes folder for obsidian": a place named for a use of the user's.
_THIS_IS_PLACE = _lazy(
    r"^this\s+is\s+the\s+((?:[A-Za-z]:\\|~/|/(?:home|users|mnt|opt|srv|data|volumes)/)\S*"
    r"(?:\s+\S+){0,4}?)\s+(folder|directory|dir|vault|repo|repository|drive|workspace)\s+for\s+"
    r"((?:[\w-]+\s+){0,2}?[\w-]+)" + _END,
    re.I,
)


def _this_is_place(m: re.Match[str], c: Clause) -> str | None:
    path, noun, use = m.group(1), m.group(2).lower(), bare_phrase(m.group(3))
    if re.search(r"\b(?:downloads?|desktop|te?mp)\b", path, re.I) or use.lower() in PRONOUNS:
        return None
    return f"The {noun} for {use} is {path}"


def _name(m: re.Match[str]) -> str:
    which = f"{m.group(1).lower()} " if m.group(1) else ""
    return f"User's {which}name is {m.group(2)}"


def _place_is(m: re.Match[str], c: Clause) -> str | None:
    owner, what, path = m.group(1).lower(), bare_phrase(m.group(2)), m.group(3).rstrip(" .,")
    if re.search(r"\b(?:downloads?|desktop|te?mp)\b", path, re.I) or len(path) < 3:
        return None  # the file of this task, put down for the moment
    if re.search(r"\.[A-Za-z]\w{0,4}[\\/]?$", path):
        return None  # "the path is C:\\…\\data.csv": a file of this task, not a place
    if re.fullmatch(r"[A-Za-z]:\\?", path):
        path = f"the {path[0].upper()}: drive"  # "my Google Drive is the G:\\"
    who = "User's" if owner == "my" else "The"
    return f"{who} {what} is {path}"


# "I'm not a programmer", "I'm not technical at all", "I don't know how to code": how much to
# explain, said of the user (the negation stays in the claim).
_NOT_TECHNICAL = _lazy(
    r"^i(?:'m| am)\s+(?:really\s+|just\s+|honestly\s+)?not\s+(?:an?\s+)?(?:very\s+|that\s+|"
    r"super\s+|particularly\s+|too\s+)?(programmer|developer|coder|dev|software engineer|"
    r"engineer|technical(?: person)?|tech(?:nical)?[- ]savvy|tech person)(?:\s+at all)?"
    + _END
    + r"|^i\s+(?:don't|do not|can't|cannot)\s+(?:really\s+)?(?:know how to\s+)?(code|program|"
    r"read code|write code)(?:\s+at all)?" + _END,
    re.I,
)


def _not_technical(m: re.Match[str], c: Clause) -> str:
    if m.group(1):
        what = m.group(1).lower()
        art = "" if what.startswith("tech") else "an " if what[0] in "aeiou" else "a "
        return f"User is not {art}{what}"
    return f"User does not know how to {m.group(2).lower()}"


# "I only have 4g ram", "my laptop has 16GB RAM", "my GPU is an RTX 4090": the user's hardware.
_HARDWARE = _lazy(
    r"^(?:i\s+(?:only\s+|also\s+|just\s+)?have|my\s+((?:[\w-]+\s+){0,2}?(?:laptop|machine|computer|"
    r"pc|mac|macbook|desktop|server|vps|workstation|gpu|cpu|graphics card))\s+(?:only\s+)?"
    r"(has|is an?|is|runs))\s+(?:about\s+|around\s+|only\s+|just\s+|an?\s+)?"
    r"(\d+(?:\.\d+)?\s*(?:gb|g|tb|mb)\s+(?:of\s+)?(?:ram|memory|vram|storage|disk(?: space)?|"
    r"ssd|unified memory)|(?:nvidia\s+|amd\s+|apple\s+|intel\s+)?(?:rtx|gtx|rx|m[1-5]|ryzen|"
    r"core i[3579]|xeon|a100|h100)\s*[\w-]*(?:\s+(?:pro|max|ultra|ti|super))?)" + _END,
    re.I,
)


def _hardware(m: re.Match[str], c: Clause) -> str:
    what = bare_phrase(m.group(3))
    if not m.group(1):
        return f"User has {what}"
    verb = "is" if m.group(2).lower().startswith("is") else "has"
    return f"User's {m.group(1).lower()} {verb} {what}"


# "English is not my first language", "I'm a native Spanish speaker", "my native language is
# Polish": the user's language, said of themselves.
_LANGUAGE = (
    r"english|spanish|french|german|portuguese|italian|russian|chinese|mandarin|cantonese|"
    r"japanese|korean|dutch|polish|turkish|ukrainian|arabic|hindi|swedish|norwegian|danish|"
    r"finnish|czech|greek|hebrew|vietnamese|indonesian|thai|persian|farsi|romanian|hungarian|"
    r"bengali|urdu|tamil|malay|catalan"
)
_MY_LANGUAGE = _lazy(
    rf"^({_LANGUAGE})\s+is\s+(not\s+)?my\s+(first|native|mother|main)\s+(?:language|tongue)"
    + _END
    + rf"|^i(?:'m| am)\s+an?\s+native\s+({_LANGUAGE})\s+speaker"
    + _END
    + rf"|^my\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+({_LANGUAGE})"
    + _END,
    re.I,
)


def _my_language(m: re.Match[str], c: Clause) -> str:
    if m.group(1):
        neg = "not " if m.group(2) else ""
        return f"User's first language is {neg}{m.group(1).capitalize()}"
    lang = (m.group(4) or m.group(5)).capitalize()
    return f"User's native language is {lang}"


# "I'm in Germany": the country the user is in (a country by name; "I'm in VS Code" is not).
_COUNTRY = (
    r"germany|france|spain|portugal|italy|brazil|mexico|argentina|chile|colombia|peru|canada|"
    r"the us|the usa|the uk|the united states|the united kingdom|england|scotland|ireland|"
    r"australia|new zealand|india|china|japan|korea|south korea|taiwan|hong kong|singapore|"
    r"vietnam|thailand|indonesia|philippines|malaysia|russia|ukraine|poland|netherlands|belgium|"
    r"switzerland|austria|sweden|norway|denmark|finland|czechia|the czech republic|greece|"
    r"turkey|israel|egypt|nigeria|kenya|south africa|morocco|uae|the uae|saudi arabia|pakistan|"
    r"bangladesh|iran|romania|hungary"
)
_IN_COUNTRY = _lazy(
    rf"^i(?:'m| am)\s+(?:currently\s+|now\s+)?(?:in|from)\s+({_COUNTRY})" + _END, re.I
)


# "my company uses Azure DevOps", "at work we use Jira": the tools of the user's workplace.
_WORK_USES = _lazy(
    rf"^(?:at work\s*,?\s*we|my\s+(company|team|employer|org|organi[sz]ation|workplace|job|"
    rf"client))\s+(?:uses?|is using|are using|runs on|works with)\s+"
    rf"((?:{_NAME}\s+){{0,3}}?{_NAME})(?:\s+for\s+((?:[\w-]+\s+){{0,2}}?[\w-]+))?" + _END,
    re.I,
)


def _work_uses(m: re.Match[str], c: Clause) -> str | None:
    tool, job = m.group(2), m.group(3)
    if not _names_a_setup_thing(tool) or re.match(rf"^{DET}\b", tool, re.I):
        return None
    if job and re.match(rf"^(?:{DET}|it|them)\b", job, re.I):
        return None
    where = f"User's {m.group(1).lower()}" if m.group(1) else "User's workplace"
    return f"{where} uses {bare_phrase(tool)}{' for ' + bare_phrase(job) if job else ''}"


# "the frontend team are using React Next.js", "our data team uses dbt": a team's tools.
_TEAM_USES = _lazy(
    rf"^(?:the|our|my)\s+((?:[\w-]+\s+){{0,2}}?team)\s+(?:uses?|is using|are using|works with|"
    rf"work with)\s+((?:{_NAME}\s+){{0,3}}?{_NAME})" + _END,
    re.I,
)


def _team_uses(m: re.Match[str], c: Clause) -> str | None:
    tool = m.group(2)
    if not _names_a_setup_thing(tool) or re.match(rf"^{DET}\b", tool, re.I):
        return None
    return f"The {bare_phrase(m.group(1)).lower()} uses {bare_phrase(tool)}"


# "my programming language, Obstruct", "for my startup Acme.": the name of the user's own thing.
_MY_THING_NAMED = _lazy(
    r"\bmy\s+(?:own\s+)?((?:[\w-]+\s+){0,2}?(?:project|app|application|saas|startup|company|"
    r"product|library|game|website|site|programming language|tool|plugin|extension|blog|"
    r"business|brand|podcast|channel|newsletter|shop|store|engine|bot|repo))\s*,?\s+"
    r"((?-i:[A-Z][\w.-]*[a-z0-9][\w.-]*)(?:\s+(?-i:[A-Z][\w.-]+))?)\s*(?=[,.!?;:)]|$)",
    re.I,
)


def _my_thing_named(m: re.Match[str], c: Clause) -> str | None:
    what, name = bare_phrase(m.group(1)).lower(), m.group(2).rstrip(".")
    if name.split()[0].lower() in PRONOUNS or name.lower() in ("claude", "readme", "claude.md"):
        return None
    return f"User's {what} is named {name}"


# "you have rclone configured", "we have Docker set up on the server": the environment has it.
_HAVE_CONFIGURED = _lazy(
    rf"^(?:you|we)(?:'ve| have)\s+(?:already\s+|also\s+)?(?:got\s+)?"
    rf"(?P<thing>(?:{_NAME}\s+){{0,2}}?{_NAME})\s+(?:already\s+)?(installed|configured|set up)"
    rf"\b{_INSTALL_TAIL}",
    re.I,
)


def _have_configured(m: re.Match[str], c: Clause) -> str | None:
    thing = m.group("thing")
    if not _installable(thing):
        return None
    thing = re.sub(r"^the\s+", "", bare_phrase(thing), flags=re.I)
    return f"{cap(thing)} is {m.group(2).lower()}"


# "we are in a tpu vm", "you are running inside a devcontainer": where the sessions run.
_RUNS_IN = _lazy(
    r"^(?:we|you)(?:'re| are)\s+(?:currently\s+|now\s+|always\s+)?(?:running\s+|working\s+)?"
    r"(?:in|on|inside)\s+(?:an?\s+)?((?:[\w.-]+\s+){0,3}?(?:vm|virtual machine|container|"
    r"devcontainer|dev container|sandbox|vps|codespace|wsl\d?|ec2 instance|instance|pod))"
    r"(?:\s+(?:environment|environemt|env))?" + _END,
    re.I,
)


# "push to my github 17871787": the user's GitHub account, when it reads as a handle.
_MY_GITHUB = _lazy(
    r"\bmy\s+github(?:\s+(?:account|user(?:name)?|handle|profile))?\s*(?:is\s+)?[:=]?\s*"
    r"@?((?=[\w-]*[\d_A-Z-])[A-Za-z0-9][\w-]{1,38})(?=\s*(?:[,.;!?)]|$|\s+(?:and|so|but|/)\b|/))"
)


# GitHub's own products and pages, which "my GitHub X" names more often than a handle.
_GITHUB_WORDS = words(
    """
actions pages copilot desktop cli enterprise pro codespaces packages issues org repo token
pat api ssh workflow workflows account profile settings app apps gist gists wiki discussions
projects sponsors marketplace
"""
)


# "I'm on the Max plan", "I have the max plan", "I upgraded to the Pro subscription": the plan
# the user pays for (how much they can run).
_PLAN = _lazy(
    r"^i(?:'m| am)?\s+(?:also\s+|now\s+|just\s+|already\s+)?(?:on|have|pay for|subscribe to|"
    r"upgraded to|'ve upgraded to|have upgraded to|switched to)\s+(?:the|a|an|my)\s+"
    r"((?:[\w$.-]+\s+){0,3}?)(plan|subscription|tier|package)" + _END,
    re.I,
)


def _plan(m: re.Match[str], c: Clause) -> str | None:
    which = bare_phrase(m.group(1))
    if not which or re.match(r"^(?:same|other|new|old|right|wrong|free trial)\b", which, re.I):
        return None  # "I'm on the same plan": the plan of this conversation
    if re.search(r"\b(?:this|that|it|implementation|migration|project|action|test)\b", which, re.I):
        return None  # "I have a migration plan": a plan of work, not a subscription
    return f"User is on the {which} {m.group(2).lower()}"


# "I'm building MultiAgent, a fork of RooCode": what the user's named project is.
_BUILDING_NAMED = _lazy(
    r"^i(?:'m| am)\s+(?:currently\s+|now\s+)?(?:building|developing|making|writing|working on)\s+"
    r"((?-i:[A-Z][\w.-]+)(?:\s+(?-i:[A-Z][\w.-]+))?)\s*,\s+((?:a|an)\s+\S.*)$",
    re.I,
)


# "I'm on Python 3.12", "I'm on node 18": the runtime the user is on, by its version.
_ON_VERSION = _lazy(
    rf"^i(?:'m| am)\s+(?:currently\s+|still\s+|now\s+|also\s+)?(?:on|running)\s+"
    rf"((?:{_NAME}\s+){{0,2}}?{_NAME}\s*v?\d+(?:\.\d+){{0,2}}(?:\.x)?)" + _END,
    re.I,
)
_RUNTIMES = words(
    """
node nodejs python ruby java go golang rust php perl deno bun dotnet .net kotlin swift xcode ios
android macos windows ubuntu debian fedora postgres postgresql mysql react next nextjs vue
angular django rails laravel spring flutter dart elixir erlang scala gradle maven typescript
"""
)


def _runtime(thing: str) -> bool:
    """ "Python 3.12", "node 18", "Next.js 15": a runtime or tool by name and version; "page 2",
    "step 3" are places in this task."""
    # ("3.11" alone leaves no name once its version is taken off: no runtime named)
    named = re.sub(r"\s*v?\d[\d.x]*$", "", thing.strip()).split()
    head = named[-1] if named else ""
    return bool(head) and (
        head.lower() in _RUNTIMES | KNOWN_TOOLS or bool(re.match(r"^[A-Z][\w.+-]*$", head))
    )


# "I run Arch", "I daily drive Fedora": the user's operating system.
_RUN_OS = _lazy(
    r"^i\s+(?:run|daily[- ]drive|dual[- ]boot)\s+((?:mac ?os|macos|osx|windows(?: \d+)?|wsl\d?|"
    r"linux|ubuntu|debian|fedora|arch(?: linux)?|nixos|manjaro|mint|linux mint|pop!?_?os|opensuse|"
    r"gentoo|void|alpine|freebsd)(?:\s+(?:and|with|on)\s+[\w.!-]+)?)" + _END,
    re.I,
)
# "I'm a Mac user", "I'm a Neovim user": the tool or system the user lives in, named.
_A_USER_OF = _lazy(
    rf"^i(?:'m| am)\s+(?:an?\s+)?(?:long-?time\s+|daily\s+|heavy\s+)?"
    rf"((?:{_NAME}\s+){{0,1}}{_NAME})\s+user" + _END,
    re.I,
)
# "I speak Spanish and English": the languages the user speaks.
_I_SPEAK = _lazy(
    rf"^i\s+(?:also\s+|only\s+|mainly\s+)?speak\s+((?:{_LANGUAGE})(?:\s*(?:,|and|&)\s*(?:{_LANGUAGE}))*)"
    + _END,
    re.I,
)
# "I'm in PST", "I'm in UTC+2": the user's timezone.
_IN_TIMEZONE = _lazy(
    r"^i(?:'m| am)\s+(?:currently\s+)?in\s+(?:the\s+)?((?-i:[A-Z]{1,4}[SD]?T|UTC|GMT|CET|CEST|IST|JST|KST)"
    r"(?:\s*[+-]\s*\d{1,2}(?::\d\d)?)?)(?:\s+(?:time ?zone|tz))?" + _END,
    re.I,
)


# Where the user's things are deployed, by the platform's name: "I'm deploying it all on
# netlify", "we will deploy via railway", "we have 2 netlify sites". A platform from the list
# only ("deploy it to the server" names nothing lasting); the imperative "deploy to Vercel" is
# this turn's step and is not read here.
_PLATFORM = (
    r"vercel|railway|netlify|heroku|render(?:\.com)?|fly(?:\.io)?|cloudflare(?: pages| workers)?|"
    r"github pages|gitlab pages|firebase(?: hosting)?|supabase|koyeb|hetzner|digital ?ocean|"
    r"aws(?: amplify| lambda| ecs)?|amplify|google cloud run|cloud run|gcp|azure|coolify|"
    r"app engine|elastic beanstalk|deno deploy"
)
_WHAT_DEPLOYED = (
    r"(?:(?P<what>everything|it all|all of (?:it|them)|all (?:my|our) (?:apps|projects|services|sites)|"
    r"(?:my|our|the) (?:[\w-]+\s+)?(?:apps?|projects?|sites?|website|backend|frontend|api|services?))"
    r"\s+)?"
)
# "… on Vercel or another host": one platform among several, no choice made.
_ONE_OF_SEVERAL = r"\s+(?:or|and)\s+(?:other|another|some|any|something)"
_I_DEPLOY = _lazy(
    rf"^(?:i(?:'m| am)\s+(?:currently\s+|now\s+|always\s+)?deploying|i\s+(?:always\s+|usually\s+)?"
    rf"deploy)\s+{_WHAT_DEPLOYED}(?P<how>on|to|via|with|using|through)\s+(?P<where>{_PLATFORM})\b"
    rf"(?!{_ONE_OF_SEVERAL}|\s+(?:right now|now|again|today|first)\b)",
    re.I,
)
_WE_WILL_DEPLOY = _lazy(
    rf"^we(?:'ll| will| need to| have to| are going to|'re going to| should| must| want to)\s+"
    rf"deploy\s+{_WHAT_DEPLOYED}(?P<how>via|on|using|through|with)\s+(?P<where>{_PLATFORM})\b"
    rf"(?!{_ONE_OF_SEVERAL})",
    re.I,
)
_PLATFORM_PROJECTS = _lazy(
    rf"^(?:we|i)(?:'ve| have)\s+(?:got\s+)?(?P<n>\d+|two|three|four|five|several|multiple)\s+"
    rf"(?P<where>{_PLATFORM})\s+(?P<what>projects|apps|sites|deployments|services)\b",
    re.I,
)
# "I'm hosted on Vercel", "we are deployed on Fly.io": the user's own deployment, by platform.
_WE_ARE_HOSTED = _lazy(
    rf"^(?:i(?:'m| am)|we(?:'re| are))\s+(?:currently\s+|now\s+|all\s+)?(?:hosted|deployed)\s+"
    rf"(?P<how>on|at|via|with|to)\s+(?P<where>{_PLATFORM})\b",
    re.I,
)
# "i have a vercel pro account": an account on a platform, named.
_PLATFORM_ACCOUNT = _lazy(
    rf"^i(?:'ve| have)\s+(?:got\s+|also\s+|already\s+)?an?\s+(?P<where>{_PLATFORM})\s+"
    rf"(?P<tier>(?:pro|hobby|free|paid|team|business|enterprise|premium|starter)\s+)?"
    rf"(?P<what>account|plan|subscription)\b",
    re.I,
)
_PLATFORM_CASE = {
    "github pages": "GitHub Pages",
    "gitlab pages": "GitLab Pages",
    "aws": "AWS",
    "gcp": "GCP",
}


def _platform(name: str) -> str:
    low = " ".join(name.lower().split())
    return _PLATFORM_CASE.get(low) or " ".join(w[:1].upper() + w[1:] for w in low.split())


def _on_platform(m: re.Match[str]) -> str:
    """How and where ("on Vercel", "via Railway"), as the user said it, the platform spelled."""
    return f"{m.group('how').lower()} {_platform(m.group('where'))}"


def _what(m: re.Match[str]) -> str:
    what = _theirs((m.group("what") or "").strip())
    return f" {what}" if what else ""


def _i_deploy(m: re.Match[str], c: Clause) -> str:
    return f"User deploys{_what(m)} {_on_platform(m)}"


def _we_will_deploy(m: re.Match[str], c: Clause) -> str:
    return f"Deploy{_what(m)} {_on_platform(m)}"


def _platform_account(m: re.Match[str], c: Clause) -> str:
    tier = m.group("tier").strip().capitalize() + " " if m.group("tier") else ""
    return f"User has a {_platform(m.group('where'))} {tier}{m.group('what').lower()}"


def _platform_projects(m: re.Match[str], c: Clause) -> str:
    return (
        f"User has {m.group('n').lower()} {_platform(m.group('where'))} {m.group('what').lower()}"
    )


# Shell aliases the user keeps: "I did alias py=python3 in my zshrc", "I have a dots alias for
# my bare dotfiles repo", "my config files (aliased to cfg in bashrc)". An rc file or "alias for"
# is required: "alias it to x" alone is a step of the task.
_RC = r"(?P<rc>\.?(?:zshrc|bashrc|bash_profile|zprofile|profile|config\.fish))"
_I_ALIASED = _lazy(
    rf"^(?:but\s+|also\s+|and\s+)?i(?:'ve| have| did)?\s+(?:already\s+|also\s+)?alias(?:ed)?\s+"
    rf"(?P<alias>[\w.-]+\s*=\s*[\w.\-/'\"]+|[\w.-]+\s+(?:to|as)\s+[\w.-]+)\s+in\s+(?:my\s+)?{_RC}\b",
    re.I,
)
_ALIAS_FOR = _lazy(
    r"^i(?:'ve| have)\s+(?:got\s+|also\s+)?an?\s+(?P<name>[\w.-]+|\ue000\d+\ue001)\s+alias\s+for\s+"
    r"(?P<what>(?:using\s+|handling\s+|managing\s+)?(?:[\w.-]+\s+){0,8}(?:dotfiles|config(?:s|uration)?"
    r"(?: files)?|repo|repository|git|docker|kubectl|python|virtualenv|venv))\b",
    re.I,
)
_MY_ALIASED = _lazy(
    rf"\bmy\s+(?P<what>(?:[\w.-]+\s+){{0,2}}?(?:files|repo|dotfiles|config))\s*\(\s*aliased\s+"
    rf"(?:to|as)\s+(?P<alias>[\w.-]+)\s+in\s+{_RC}\s*\)",
    re.I,
)


def _rc(m: re.Match[str]) -> str:
    rc = m.group("rc").lower()
    return rc if rc.startswith(".") or rc == "config.fish" else f".{rc}"


# "I don't have Claude Desktop", "i dont even have a nvidia gpu": a tool or a piece of hardware
# the user lacks, named (or a hardware noun); "I don't have the time / a clue" names nothing.
# (Its machines are the personal ones only, not all of _MACHINE: "on this server / box" is as
# often the machine of the task.)
_DONT_HAVE = _lazy(
    rf"^i\s+(?:don't|do not|dont)\s+(?:even\s+|currently\s+|actually\s+)?(?:have|own)\s+"
    rf"(?P<thing>(?:an?\s+)?(?:{_NAME}\s+){{0,2}}?{_NAME})"
    rf"(?:\s+on\s+(?:my|this)\s+(?:machine|computer|laptop|mac|pc))?{_END}",
    re.I,
)
_HARDWARE_NOUN = words(
    """
gpu gpus graphics card mac macbook iphone ipad android laptop pc desktop monitor webcam printer
"""
)


def _dont_have(m: re.Match[str], c: Clause) -> str | None:
    thing = m.group("thing")
    bare = re.sub(r"^an?\s+", "", thing, flags=re.I)
    if re.match(rf"^(?:{DET}|any|much|many|enough|time|access|permission)\b", bare, re.I):
        return None
    if re.search(r"\b(?:installed|set up|setup|configured|running|open|active|yet)$", bare, re.I):
        return None  # "I do not have Docker installed": a step of this task's setup
    if not (_names_a_setup_thing(bare) or bare.split()[-1].lower() in _HARDWARE_NOUN):
        return None
    return f"User does not have {bare_phrase(thing)}"


# "I keep my notes in Obsidian", "I keep my passwords in 1Password": the tool the user keeps a
# kind of their things in (what they keep right now, "I keep my answers short", says no place).
_I_KEEP_MY = _lazy(
    r"^i\s+(?:always\s+|usually\s+|normally\s+)?keep\s+(?:all\s+)?my\s+(?P<what>[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?P<prep>in|under|at|on)\s+(?P<where>\S.{1,60}?)\s*[.!]*$",
    re.I,
)


def _i_keep_my(m: re.Match[str], c: Clause) -> str | None:
    if re.match(r"[~./\\\ue000]|[A-Za-z]:\\|\S*/", m.group("where")):
        return None  # a path: facts.have_at says where ("User keeps scripts in ~/scripts")
    if vague(m.group("where")) or re.search(r"\b(?:for now|today|mind|sync|check|order)\b", c.text, re.I):
        return None
    return f"User keeps their {m.group('what')} {m.group('prep').lower()} {m.group('where')}"


_F = "situation"
RULES: tuple[ClauseRule, ...] = (
    ClauseRule("keeps_in", _F, _I_KEEP_MY, _i_keep_my, "fact"),
    ClauseRule("user_plan", _F, _PLAN, _plan, "fact"),
    ClauseRule("deploys_on", _F, _I_DEPLOY, _i_deploy, "fact"),
    ClauseRule("deploys_on", _F, _WE_WILL_DEPLOY, _we_will_deploy, "decision"),
    ClauseRule("deploys_on", _F, _PLATFORM_PROJECTS, _platform_projects, "fact"),
    ClauseRule(
        "deploys_on",
        _F,
        _WE_ARE_HOSTED,
        lambda m, c: f"User's app is hosted {_on_platform(m)}",
        "fact",
    ),
    ClauseRule("deploys_on", _F, _PLATFORM_ACCOUNT, _platform_account, "fact"),
    ClauseRule("user_hardware", _F, _DONT_HAVE, _dont_have, "fact"),
    ClauseRule(
        "shell_alias",
        _F,
        _I_ALIASED,
        lambda m, c: f"User has alias {' '.join(m.group('alias').split())} in {_rc(m)}",
        "fact",
    ),
    ClauseRule(
        "shell_alias",
        _F,
        _ALIAS_FOR,
        lambda m, c: (
            f"User has a {m.group('name')} alias for {_theirs(bare_phrase(m.group('what')))}"
        ),
        "fact",
    ),
    ClauseRule(
        "shell_alias",
        _F,
        _MY_ALIASED,
        lambda m, c: (
            f"User's {m.group('what').lower()} are aliased to {m.group('alias')} in {_rc(m)}"
        ),
        "fact",
        search=True,
    ),
    ClauseRule(
        "user_uses",
        _F,
        _ON_VERSION,
        lambda m, c: f"User is on {bare_phrase(m.group(1))}",
        "fact",
        lambda m, c: _runtime(m.group(1)),
    ),
    ClauseRule(
        "user_uses", _F, _RUN_OS, lambda m, c: f"User runs {bare_phrase(m.group(1))}", "fact"
    ),
    ClauseRule(
        "user_uses",
        _F,
        _A_USER_OF,
        lambda m, c: f"User is a {bare_phrase(m.group(1))} user",
        "fact",
        lambda m, c: bool(re.match(r"^[A-Z\ue000]", m.group(1))) or _names_a_setup_thing(m.group(1)),
    ),
    ClauseRule(
        "user_language", _F, _I_SPEAK, lambda m, c: f"User speaks {bare_phrase(m.group(1))}", "fact"
    ),
    ClauseRule(
        "user_place", _F, _IN_TIMEZONE, lambda m, c: f"User's timezone is {m.group(1)}", "fact"
    ),
    ClauseRule(
        "project_is",
        _F,
        _BUILDING_NAMED,
        lambda m, c: f"User is building {m.group(1)}, {bare_phrase(m.group(2))}",
        "fact",
        lambda m, c: 2 <= content_words(m.group(2)) <= 14,
    ),
    ClauseRule("user_installed", _F, _HAVE_INSTALLED, _installed, "fact"),
    ClauseRule("user_installed", _F, _INSTALLED, _installed, "fact"),
    ClauseRule(
        "user_experience",
        _F,
        _EXPERIENCE,
        _YEARS_THEN_WHAT[0],
        "fact",
        _YEARS_THEN_WHAT[1],
    ),
    ClauseRule(
        "user_experience",
        _F,
        _EXPERIENCE_IN,
        _YEARS_THEN_WHAT[0],
        "fact",
        _YEARS_THEN_WHAT[1],
        search=True,
    ),
    ClauseRule(
        "user_experience",
        _F,
        _BEEN_DOING,
        _WHAT_THEN_YEARS[0],
        "fact",
        _WHAT_THEN_YEARS[1],
    ),
    ClauseRule(
        "user_experience",
        _F,
        _NO_EXPERIENCE,
        _no_experience,
        "fact",
        _YEARS_THEN_WHAT[1],
    ),
    ClauseRule("user_studied", _F, _STUDIED, _studied, "fact"),
    ClauseRule("user_name", _F, _MY_NAME, lambda m, c: _name(m), "fact"),
    ClauseRule("user_non_technical", _F, _NOT_TECHNICAL, _not_technical, "fact"),
    ClauseRule("user_hardware", _F, _HARDWARE, _hardware, "fact"),
    ClauseRule("user_language", _F, _MY_LANGUAGE, _my_language, "fact"),
    ClauseRule(
        "user_place",
        _F,
        _IN_COUNTRY,
        lambda m, c: f"User is in {re.sub(r'^the ', 'the ', bare_phrase(m.group(1)), flags=re.I)}",
        "fact",
    ),
    ClauseRule("work_uses", _F, _WORK_USES, _work_uses, "fact"),
    ClauseRule("work_uses", _F, _TEAM_USES, _team_uses, "fact"),
    ClauseRule("user_installed", _F, _HAVE_CONFIGURED, _have_configured, "fact"),
    ClauseRule(
        "runs_in",
        _F,
        _RUNS_IN,
        lambda m, c: f"Sessions run in a {bare_phrase(m.group(1))}",
        "fact",
        lambda m, c: not re.match(rf"^(?:{DET}|same|different|new|loop|hurry)\b", m.group(1), re.I),
    ),
    ClauseRule("user_name", _F, _MY_THING_NAMED, _my_thing_named, "fact", search=True),
    ClauseRule(
        "user_name",
        _F,
        _MY_GITHUB,
        lambda m, c: f"User's GitHub account is {m.group(1)}",
        "fact",
        lambda m, c: m.group(1).lower() not in _GITHUB_WORDS,
        search=True,
    ),
    ClauseRule("place_is", _F, _PLACE_IS, _place_is, "fact"),
    ClauseRule("place_is", _F, _THIS_IS_PLACE, _this_is_place, "fact"),
    ClauseRule("user_occupation", _F, _ROLE, _role, "fact"),
    ClauseRule("user_uses", _F, _USING, _using, "fact"),
    ClauseRule("user_default", _F, _DEFAULT_SET, _default_set, "preference"),
    ClauseRule(
        "acronym",
        _F,
        _ACRONYM,
        lambda m, c: cap(f"{m.group(1)} means {bare_phrase(m.group(2)).lower()}"),
        "fact",
        _acronym_ok,
    ),
)
# A path may hold " - " ("…\16 - Obsidian\…"), where a sentence is split into clauses: the
# statement reader tries the place entries on the whole sentence first.
WHOLE_SENTENCE = tuple(r for r in RULES if r.name == "place_is")
