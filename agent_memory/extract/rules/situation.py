"""Rules for what a session is *about*, which people state once in passing while asking for
something else: facts about the user ("I'm the admin here", "I have a Windows 10 laptop", "I
know almost no Rust"), what the project is ("I'm building a booking app for vets", "it's a
CLI for invoices"), what it was renamed to or replaced, how it is hosted, and rules with a
generic subject ("anything generated must not be edited by hand", "the docs should follow
the code"). Each returns (claim, kind, sub-rule) or None; the claim stands alone: the user
becomes "User", "I"/"we" never survive into it."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    CONSEQUENCE_SUBJECT,
    PRONOUNS,
    STATUS_VALUE,
    TASK_NOUNS,
    WORK_CHECK,
    content_words,
    product_spec,
    vague,
)
from agent_memory.extract.rules.base import Check, Clause, ClauseRule, cap
from agent_memory.extract.rules.preferences import toolish
from agent_memory.extract.text import bare_phrase, words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_TOKEN = r"[\w\ue000\ue001./@+#-]+"
# What a project is: the head noun of "I'm building a … <noun>".
_PRODUCT = (
    r"app|application|bot|service|platform|tool|website|site|web ?app|dashboard|library|lib|cli|"
    r"api|game|extension|plugin|company|startup|saas|product|system|tracker|backend|frontend|"
    r"server|framework|engine|sdk|package|portal|marketplace|store|shop|crm|erp|agent|assistant|"
    r"pipeline|monorepo|microservice|script|compiler|editor|client|integration|dashboard"
)
_BUILDING = _lazy(
    rf"^(?:i|we)(?:'m| am|'re| are)?\s+(?:(?:currently|now|basically|essentially)\s+)?"
    rf"(?:building|developing|making|writing|working on|creating)\s+"
    rf"((?:a|an|our|my)\s+(?:{_TOKEN}\s+){{0,6}}?(?:{_PRODUCT})s?\b.*)",
    re.I,
)
_PRODUCT_HEAD = _lazy(
    rf"^(?:a|an|our|my)\s+(?:(?!that\b|which\b|to\b|for\b|with\b|where\b|from\b|of\b|in\b)"
    rf"{_TOKEN}\s+){{0,6}}?(?:{_PRODUCT})s?\b",
    re.I,
)
_WANT_TO_BUILD = _lazy(
    rf"^(?:i|we)\s+(?:want|need|would like|'d like|am going|'m going|plan)\s+to\s+"
    rf"(?:build|create|make|develop|start|write)\s+"
    rf"((?:a|an)\s+(?:{_TOKEN}\s+){{0,6}}?(?:{_PRODUCT})s?\b.*)",
    re.I,
)
_IT_IS_A = _lazy(
    rf"^(?:it|this|this project|this repo|the project|the app|the product)\s*(?:'s| is)\s+"
    rf"(?:(?:essentially|basically|just|really|actually|mainly|primarily)\s+)?"
    # the product word heads the first noun phrase: "an integration test requiring a running
    # server" is a test (a second article starts another phrase)
    rf"((?:a|an)\s+(?:(?!and\b|or\b|that\b|which\b|applies\b|to\b|for\b|with\b|an?\b|the\b)"
    rf"{_TOKEN}\s+){{0,5}}?"
    rf"(?:{_PRODUCT})s?\b"
    # "an integration test", "an api error": the product word names something else here
    rf"(?!\s+(?:tests?|suite|case|error|bug|issue|file|step|branch|failure|problem|key|call)\b).*)",
    re.I,
)
# Facts about the user: role, machine, knowledge, employer, place.
_I_AM_ROLE = _lazy(
    r"^i(?:'m| am)\s+(?:the|an?)\s+((?:[\w-]+\s+){0,2}?(?:admin|administrator|owner|maintainer|"
    r"author|developer|dev|engineer|designer|student|teacher|lead|manager|founder|cto|ceo|"
    r"sysadmin|devops|consultant|freelancer|contractor|beginner|newbie|researcher|scientist|"
    r"analyst|architect|hobbyist))\b(.*)$",
    re.I,
)
_I_HAVE_MACHINE = _lazy(
    r"^i\s+(?:only\s+|also\s+)?(?:have|own|use|work on|am on|'m on)\s+(?:an?|one|two|my)\s+"
    r"((?:[\w.+-]+\s+){0,3}?(?:computer|laptop|machine|pc|mac|macbook|desktop|workstation|"
    r"server|phone|tablet|vps|raspberry pi|box|keyboard|monitor))\b(.*)$",
    re.I,
)
# "I'm new to all this", "im a total noob": how much to explain, said of the user themself.
_I_AM_NEW = _lazy(
    r"^i(?:'m| am)\s+(?:(?:completely|totally|very|pretty|quite|still|kind of|kinda|a bit|really)\s+)*"
    r"(?:new to (?:all (?:of )?this|this(?: stuff)?|coding|programming|code|development|software|"
    r"the terminal|the command line|computers|git|ai|claude(?: code)?)|"
    r"an? (?:total |complete |absolute |real )?(?:newbie|noob|beginner|novice|non-developer|"
    r"non-programmer|non-coder|non-technical person)(?!\s+(?:in|at|with|to)\s+(?!explain)))\b",
    re.I,
)


# "… at Meta", "… for a bank", "… at Acme Corp with a physics background"
_AT_ORG = _lazy(
    r"^\s+(at|for)\s+((?:[A-Z][\w&.-]*|a|an)(?:\s+[A-Z][\w&.-]*){0,3})(?:\s+with\b.*)?\s*[.!]*$"
)


def _employer(rest: str) -> str:
    m = _AT_ORG.match(rest)
    return f" {m.group(1)} {m.group(2)}" if m and m.group(2).lower() not in ("a", "an") else ""


def _article(text: str) -> str:
    """The article the user put before their role ("I'm a student", "I'm the admin")."""
    m = re.match(r"^i(?:'m| am)\s+(the|an?)\b", text, re.I)
    return m.group(1).lower() if m else "the"


_I_KNOW = _lazy(
    r"^i\s+(?:know|speak|understand)\s+(almost no|very little|little|next to no|no|nothing about|"
    r"hardly any|barely any)\s+(\S.*)$",
    re.I,
)
# "I don't know much about graphql": how much the user knows, said the other way round.
_MACHINE_TROUBLE = _lazy(
    r"^(?:problems?|issues?|errors?|bugs?|questions?|troubles?|glitch(?:es)?)\b", re.I
)
_I_DONT_KNOW = _lazy(
    r"^i\s+(?:don't|do not)\s+know\s+(?:much|a lot|a great deal|anything|a thing)\s+about\s+"
    r"(\S.*)$",
    re.I,
)
_I_NEW_TO = _lazy(
    r"^i(?:'m| am)\s+(?:completely\s+|totally\s+|very\s+|pretty\s+|quite\s+)?(new to|"
    r"not (?:very |too |that |so |really )?familiar with|unfamiliar with|a beginner (?:in|at|with)|an expert (?:in|at|with)|experienced with|"
    r"fluent in|comfortable with)\s+(\S.*)$",
    re.I,
)
_I_WORK = _lazy(
    r"^i\s+(?:work|am working)\s+(for|at)\s+(\S.*)$|^i(?:'m| am)\s+(based|located|living)\s+in\s+"
    r"(\S.*)$",
    re.I,
)
_I_CARE = _lazy(
    r"^i\s+(?:really\s+|mainly\s+|mostly\s+|deeply\s+)?care\s+(?:a lot\s+)?about\s+(\S.*)$", re.I
)
_I_WARY = _lazy(
    r"^i(?:'m| am)\s+(?:just\s+|really\s+|always\s+)?(?:very\s+|quite\s+|a bit\s+|pretty\s+)?"
    r"(cautious|wary|skeptical|sceptical|careful|nervous|suspicious)\s+(?:about|of|with|around)\s+(\S.*)$",
    re.I,
)
_DONT_WANT_ON = _lazy(
    r"^i\s+(?:really\s+)?(?:don't|do not)\s+want\s+(\S+(?:\s+\S+){0,3}?)\s+(on|in)\s+my\s+"
    r"((?:[\w-]+\s+)?(?:hosts?|machines?|computers?|laptops?|servers?|systems?|boxes|box|"
    r"system|os|path|shell|environment|repo|repos|projects?|codebase))\b(.*)$",
    re.I,
)
# Renames and replacements: what a thing is called now, what replaced what.
_RENAMED = _lazy(
    rf"^(?:i|we)(?:'ve| have)?\s+(?:just\s+|now\s+|already\s+)?renamed\s+(?:the\s+|my\s+|our\s+)?"
    rf"((?:[\w-]+\s+){{0,3}}?)(?:from[:\s]\s*)?({_TOKEN})\s+(?:to|as|into)[:\s]\s*({_TOKEN})\s*$",
    re.I,
)
_RENAME_TO = _lazy(
    rf"^rename\s+(?:this|the|our|my)\s+(project|repo|repository|app|package|tool|service|library)"
    rf"\s+(?:to|as|into)\s+({_TOKEN})\s*$",
    re.I,
)
_IS_NOW = _lazy(
    rf"^({_TOKEN})\s+(?:is|has become)\s+now\s+({_TOKEN})$|^({_TOKEN})\s+is\s+now\s+(?:called|named)"
    rf"\s+({_TOKEN})$",
    re.I,
)
_REPLACED = _lazy(
    rf"^(?:i thought\s+)?(?:we|i)(?:'ve| have)?\s+(?:already\s+|just\s+)?(?:replaced|swapped|"
    rf"switched out)\s+({_TOKEN})\s+(?:with|for|by)\s+({_TOKEN})\b",
    re.I,
)
_REPLACE_REQ = _lazy(
    rf"^(?:can|could)\s+(?:we|you)\s+(?:please\s+)?(?:change|replace|swap|switch)\s+({_TOKEN})\s+"
    rf"(?:for|with|to)\s+(?:something\s+(?:more\s+)?\w+\s+like\s+)?({_TOKEN})\b|"
    rf"^(?:let's|lets)\s+(?:replace|swap)\s+({_TOKEN})\s+(?:for|with)\s+({_TOKEN})\b",
    re.I,
)
# "we no longer use Heroku", "we don't support IE11 anymore": a practice of the team that ended.
# "we no longer need the flag when …", "we don't need the legacy switch anymore" ask to take a
# piece of the code out in this task (a change request, judged so on strangers): not read.
_NO_LONGER = _lazy(
    r"^(?:we|i)\s+(?:don't|do not|no longer)\s+(use|support|run|deploy with|build with)\s+"
    r"(\S+(?:\s+\S+){0,3}?)\s+(?:anymore|any more|now)$|^(?:we|i)\s+no longer\s+(use|support)"
    r"\s+(\S.*)$",
    re.I,
)
# Hosting: "the site is hosted on Netlify", "the db is locally hosted via docker compose".
_HOSTED = _lazy(
    rf"^((?:the|our|my)\s+(?:{_TOKEN}\s+){{0,3}}?{_TOKEN}|(?-i:[A-Z][\w.-]+))\s+(?:is|are)\s+(?:locally\s+|currently\s+|"
    rf"now\s+|self-?\s?)?(hosted|deployed|served|installed|managed)\s+(?:locally\s+)?(on|via|with|in|at|as|"
    rf"through|using)\s+(\S.*)$",
    re.I,
)
_USES_VERSION = _lazy(
    rf"^((?:the\s+)?[A-Z][\w.-]*(?:\s+[\w.-]+)?)\s+(?:is\s+using|uses|runs|is\s+on|is\s+running)\s+"
    rf"({_TOKEN}\s+v?\d+(?:\.\d+)*)\b(.*)$"
)
# "Under no circumstances (ever) will I use PRs", "under no circumstances push to main".
_NO_CIRCUMSTANCES = _lazy(
    r"^(?:under no circumstances|in no case|never ever)\s*,?\s*(?:ever\s+)?"
    r"(?:(?:will|shall|should|must|do|may|can)\s+(i|we|you)\s+)?(\S.*)$",
    re.I,
)
# Generic-subject rules: "anything handled in code shouldn't be duplicated".
_QUANTIFIER_WORD = _lazy(r"^(?:all|every|each|no)\b", re.I)
_GENERIC_SHOULD = _lazy(
    r"^((?:any ?thing|every ?thing|nothing|all|every|each|no)\b[^,;]{0,60}?|"
    r"(?:the\s+)?(?:docs|documentation|readme|changelog|claude\.md|agents\.md|comments|commit "
    r"messages|tests|code|codebase|ui|api|config|logs|errors?|error messages|names|naming|"
    r"variables|functions|types|migrations|secrets|dependencies|\ue000\d+\ue001))\s+"
    r"(should(?:n't| not)?|must(?:n't| not)?|need(?:s)? to|ought to)\s+(?:always\s+|never\s+|only\s+)?"
    r"(\S.*)$",
    re.I,
)
_BUILT_WITH = _lazy(
    rf"^(?:(?:i|we)(?:'d| would)?\s+(?:like|want)\s+to\s+start\s+)?(?:a|an|the|this|my|our)\s+"
    rf"(?:{_TOKEN}\s+){{0,3}}?(?:{_PRODUCT}|project)\s+(?:that|which)?\s*(?:is|will be|should be)\s+"
    rf"(?:implemented|built|written|developed|made)\s+(?:using|with|in)\s+(\S.*)$|"
    rf"^(?:this|the|our|my)\s+(?:{_TOKEN}\s+)?(?:{_PRODUCT}|project|code)\s+should\s+be\s+"
    rf"(?:written|built|implemented|developed)\s+(?:in|with|using)\s+(\S.*)$",
    re.I,
)
# "run everything via tmuxinator only", "I only want to run my services through docker compose".
_ALL_VIA = _lazy(
    r"^(?:(?:i|we)\s+only\s+want\s+to\s+|only\s+)?(run|start|manage|deploy|build|install|launch)\s+"
    r"((?:everything|all(?:\s+(?:of\s+)?(?:the|my|our))?(?:\s+[\w-]+){0,2}|(?:my|our|the)\s+[\w-]+"
    r"(?:\s+[\w-]+)?))\s+(?:via|with|through|using|in|from)\s+(\ue000\d+\ue001|[\w.-]+)(\s+only)?\s*$",
    re.I,
)
# "ensure CLAUDE.md links to AGENTS.md": a standing property of a named file.
_ENSURE_FILE = _lazy(
    r"^(?:please\s+|pls\s+)?(?:make sure|ensure)(?:\s+that)?\s+((?:the\s+)?(?:\ue000\d+\ue001|"
    r"[\w~./-]*\w\.(?:md|json|ya?ml|toml|txt|cfg|ini|lock|py|ts|js|sh)\b|[\w./-]+/))\s+"
    r"((?:always\s+|never\s+|only\s+)?\w+s\b.*)$",
    re.I,
)
# "be simple, be clear and concise for CLAUDE.md": a style asked for a kind of text.
_BE_STYLE = _lazy(
    r"^be\s+([\w-]+(?:(?:,\s*|\s+and\s+|\s+)(?:be\s+)?[\w-]+){0,5}?)\s+(?:for|in|with)\s+"
    r"((?:the\s+|all\s+|your\s+)?(?:\S*claude\.md|\S+\.md|readme|docs|documentation|comments|"
    r"commit messages|answers|responses|replies|explanations|reviews|summaries|prs?|pull requests)"
    r"(?:\s+files?)?)\s*$",
    re.I,
)
# How Claude should talk to the user, said of its own output ("keep your answers short", "use
# plain language", "don't be so verbose"): about the manner of every reply, never about the
# artifact of the task (the object is Claude's answers or explanations in the plural, "keep the
# answer short" is about this one; a bare "be concise" may be about what the task writes).
_STYLE_ADJ = r"(?:short|shorter|brief|briefer|concise|simple|simpler|plain|minimal|clear|succinct|terse|to the point)"
_REPLY_STYLE = _lazy(
    r"^(?:(?:please|always)\s+)?(?:"
    # Claude's own replies: "your" or no determiner ("keep the messages short" is the task's)
    rf"keep\s+(?:(?:your\s+)?(?:answers|responses|replies|explanations)|your\s+(?:language|"
    rf"messages|wording))\s+{_STYLE_ADJ}(?:(?:\s+and\s+|,\s*|\s+){_STYLE_ADJ})*|"
    r"(?:answer|reply|respond|explain(?:\s+things)?)\s+(?:briefly|concisely|simply|"
    r"in (?:plain|simple) (?:english|language|terms|words))|"
    r"use\s+(?:simple|plain|simpler|plainer)\s+(?:language|english|words|terms)|"
    r"(?:talk|speak)\s+to\s+me\s+in\s+(?:plain|simple)\s+(?:english|language|terms)|"
    r"(?:don't|do not)\s+be\s+(?:so\s+|too\s+)?(?:verbose|wordy|long-winded)|"
    r"be\s+less\s+(?:verbose|wordy)"
    r")(?:,?\s+please)?\s*[.!]*$",
    re.I,
)
# "(the new project that) we will build around X".
_BUILD_AROUND = _lazy(
    r"\b(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to)\s+build\s+"
    r"(?:it\s+|this\s+)?(around|on top of|on|with)\s+(\S.*)$",
    re.I,
)
# "only using X instead of (using) Y", inside a longer request: a choice for this project.
_USING_INSTEAD = _lazy(
    rf"\b(?:only\s+)?using\s+({_TOKEN}(?:\s*\+\s*{_TOKEN})*)\s+(?:instead of|rather than)\s+"
    rf"(?:using\s+)?({_TOKEN})\b",
    re.I,
)
_REPLACE_IMP = _lazy(
    rf"^(?:change|replace|swap|switch)\s+({_TOKEN})\s+(?:for|with|to)\s+(?:something\s+(?:more\s+)?"
    rf"\w+\s+like\s+)?({_TOKEN})\s*[?.!]*$",
    re.I,
)
# "update the main CLAUDE.md to call out when a subagent is used": the change asked for in
# Claude's own instructions is itself a standing rule.
_CONFIG_UPDATE = _lazy(
    r"^(?:update|change|edit|modify|adjust|amend|extend)\s+(?:the\s+|my\s+|your\s+|our\s+)?"
    r"(?:(?:main|global|project|user|claude)\s+){0,2}(?:\S*claude\.md|\S*agents\.md|rules|ruleset|"
    r"instructions|memory|memories|system prompt)(?:\s+files?)?"
    r"(?:\s+(?:in|at|for|under)\s+\S+(?:\s+(?:\S+\s+){0,3}?(?:file|dir|directory|folder))?)?"
    r"(?:\s+for\s+[\w\s-]{1,30}?)?\s+to\s+(?!include\b|add\b|reflect\b)"
    # "update your memory to deeply understand the parser": what the notes are for, no rule
    r"(?!(?:\w+ly\s+)?(?:understand|know|learn|cover|capture|document|describe|explain|"
    r"summari[sz]e|remember|track)\b)(\S.*)$",
    re.I,
)
# "this is the image used: vendor/app:1.2" — the one in use, named.
_THE_ONE_USED = _lazy(
    r"^(?:this|that|here)\s+is\s+the\s+([\w\s-]{2,30}?)\s+(?:used|we use|i use|in use|we're using|"
    r"i'm using)\s*[:=]?\s+([\w.@/:+-]*[/:.][\w.@/:+-]*)(?:\s.*)?$",
    re.I,
)
# Naming and modelling decisions: "the two job kinds are called ingest and export",
# "treat `createdAt` as the order date".
_CALLED = _lazy(
    r"^((?:the|our|all|both)\s+(?:[\w-]+\s+){0,4}?[\w-]+)\s+(?:is|are)\s+(?:called|named)\s+(\S.*)$",
    re.I,
)
# "the handler is called twice", "… is called from the worker": invoked, not named.
_INVOKED = _lazy(
    r"(?:twice|once|thrice|\d+\s+times|(?:several|many|multiple|a few|too many)\s+times|again|"
    r"repeatedly|from|by|when|whenever|in|on|with|inside|before|after|during|every|each|only|at|"
    r"too often)\b",
    re.I,
)
_TREAT_AS = _lazy(
    r"^(?i:always\s+)?(?i:treat)\s+(\ue000\d+\ue001|[a-z]+[A-Z_]\w*|\w+_\w+)\s+as\s+(\S.*)$"
)
# "there should not be any changes": the outcome of this edit, not a rule.
_NO_CHANGE = _lazy(
    r"^(?:any|no)\s+(?:more\s+|other\s+|new\s+)?(?:code\s+|file\s+)?(?:changes?|differences?|diffs?|errors?|issues?|"
    r"problems?|warnings?)\b",
    re.I,
)
_THERE_SHOULD = _lazy(
    r"^there\s+(should(?:n't| not| never)|must(?:n't| not| never)|can't|cannot|may not)\s+be\s+"
    r"(\S.*)$",
    re.I,
)
# A run-on whose second half is a rule about the docs: "code is the truth the docs should follow it".
_RUN_ON_SHOULD = _lazy(
    r"\s(the\s+(?:docs|documentation|readme|changelog|comments|claude\.md|agents\.md)\s+"
    r"(?:should|must)\s+(?:always\s+)?(?:reflect|follow|match|mirror|describe|track)\s+\S.*)$",
    re.I,
)
_DISABLE = _lazy(
    r"^(?:please\s+|pls\s+)?(disable|turn off|switch off)\s+((?:the\s+)?(?:[\w.-]+\s+)?"
    r"(?:auto-?updates?|autoupdates?|automatic updates|telemetry|analytics|crash reporting))\s*$",
    re.I,
)
_KEEP_IN = _lazy(
    r"^(?:just\s+|only\s+)?(?:keep|have)\s+(\S.{0,80}?)\s+(?:(?:written|stored|kept|placed|saved|"
    r"defined)\s+)?(?:in|under|inside)\s+(?:the\s+)?"
    r"((?:\S*[/.]\S*|\ue000\d+\ue001)(?:\s+(?:folder|directory|dir))?)\s*(?:,.*)?$",
    re.I,
)


# Where a run-on sentence starts its next thought: "an internal tool so I'll host it cheaply".
_RUN_ON = _lazy(
    r"\s+(?:so|and|but|because|since|as|which|where|then)\s+(?:i|we|you|it|they|this|that)\b|"
    r"\s+(?:i'll|i'm|i'd|we'll|we're|i\s+(?:want|need|think|will|would))\b|,\s+|\s+since\s+|"
    r"\s+because\s+|\s+-\s+",
    re.I,
)


def _cut(obj: str) -> str:
    """The object up to where a run-on sentence starts its next thought."""
    m = _RUN_ON.search(obj)
    return bare_phrase(obj[: m.start()] if m else obj)


# "a new product", "a serious product": says nothing about what the project is.
_BARE_PRODUCT = _lazy(
    r"^(?:a|an|our|my)\s+(?:(?:new|serious|real|simple|small|big|cool|good|great|whole)\s+)*"
    r"(?:product|app|application|project|tool|thing|system|platform)\s*[.!]*$",
    re.I,
)


def _bounded(obj: str, limit: int = 14) -> bool:
    return 1 <= content_words(obj) <= limit and not vague(obj) and not _BARE_PRODUCT.match(obj)


def _obj_ok(limit: int, group: int = 1, cut: bool = True) -> Check:
    def check(m: re.Match[str], c: Clause) -> bool:
        obj = _cut(m.group(group)) if cut else m.group(group)
        return _bounded(obj, limit)

    return check


def _no_pronoun(group: int) -> Check:
    return lambda m, c: m.group(group).split()[-1].lower() not in PRONOUNS


def _user_machine(m: re.Match[str], c: Clause) -> str | None:
    tail = m.group(2).strip()
    if _MACHINE_TROUBLE.match(tail):
        return None  # "I have a keyboard problem": the trouble at hand, not the machine
    tail = "" if re.match(r"^(?:and|but|so|which|that|where)\b", tail, re.I) else tail
    return f"User has a {bare_phrase(m.group(1) + ' ' + tail)}"


def _user_place(m: re.Match[str], c: Clause) -> str | None:
    prep, place = (m.group(1), m.group(2)) if m.group(1) else (f"{m.group(3)} in", m.group(4))
    if not _bounded(place, 6) or place.split()[0].lower() in PRONOUNS:
        return None
    verb = "works" if m.group(1) else "is"
    return f"User {verb} {prep.lower()} {bare_phrase(place)}"


def _renamed_to(m: re.Match[str], c: Clause) -> str | None:
    old, new = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if old.lower() in PRONOUNS or old.lower() == new.lower():
        return None
    return f"{old} was renamed to {new}"


# "can we change X to be …": the word after "to" is a verb or a function word, not a name.
_NOT_A_NAME = words("be is are was were do does have has get make use a an the to of and or not no")


def _replace_request(m: re.Match[str], c: Clause) -> str | None:
    old, new = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if {old.lower(), new.lower()} & _NOT_A_NAME:
        return None  # "can we change the limit to be one day": a value of this edit
    if vague(old) or vague(new) or new.lower() in PRONOUNS | {"something"}:
        return None
    return f"Use {new}, not {old}"


def _no_longer(m: re.Match[str], c: Clause) -> str | None:
    verb, obj = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if re.match(r"^(?:the|this|that|these|those)\s", obj, re.I):
        return None  # "we no longer use the sidebar for navigation": a piece of the thing built
    return None if vague(obj) else f"We no longer {verb.lower()} {bare_phrase(obj)}"


def _all_via(m: re.Match[str], c: Clause) -> str | None:
    what = re.sub(r"^(?:my|our|the)\s+", "", m.group(2), flags=re.I)
    only = bool(m.group(4)) or c.text.lower().startswith(("i only", "we only", "only"))
    if not only and not re.match(r"^(?:everything|all)\b", what, re.I):
        return None  # "run the services in docker": this turn's step
    # "all the services", "my apps", "everything": the rule is about the tool, one spelling.
    if re.match(r"^(?:all\b|every|services|apps|processes|servers)", what, re.I):
        what = "everything"
    return cap(f"{'Only ' if only else ''}{m.group(1).lower()} {what} via {m.group(3)}")


def _not_this(group: int) -> Check:
    return lambda m, c: not re.match(r"^(?:this|that|it)\b", m.group(group), re.I)


def _task_requirement(subject: str) -> bool:
    """ "each card should show a due date", "nothing else should change": the spec of the work
    at hand (a thing of the task as the subject, or what else this edit may touch)."""
    words_ = subject.lower().replace(",", " ").split()
    return bool(words_) and (words_[-1] in TASK_NOUNS or words_[0] in ("nothing", "no"))


# "my terminal is WezTerm", "my timezone is CET": the user's environment, said plainly.
_MY_ENV = _lazy(
    r"^my\s+(?:default\s+|main\s+|usual\s+)?(terminal|terminal emulator|timezone|time zone|locale|"
    r"browser|distro|linux distro|laptop|desktop|machine|computer|window manager|keyboard layout|"
    r"keyboard|dotfiles manager|font|theme|color scheme|colour scheme|prompt|multiplexer)\s+is\s+"
    r"(\S.{0,40}?)\s*$",
    re.I,
)
_I_LIVE = _lazy(r"^i\s+(?:currently\s+)?live\s+in\s+(\S.*)$", re.I)
# "answer in Spanish", "always reply in French": the language the user wants to be answered in.
_LANGUAGES = (
    r"english|spanish|french|german|portuguese|brazilian portuguese|italian|russian|chinese|"
    r"mandarin|japanese|korean|dutch|polish|turkish|ukrainian|arabic|hindi|swedish|norwegian|"
    r"danish|finnish|czech|greek|hebrew|vietnamese|indonesian|thai"
)
_ANSWER_IN = _lazy(
    rf"^(?:(?:always|only)\s+)?(?:answer|reply|respond|talk|speak)(?:\s+to\s+me)?\s+"
    rf"(?:only\s+)?in\s+({_LANGUAGES})\s*$",
    re.I,
)

_EVER = _lazy(r"^ever\s+", re.I)


def _keep_in(m: re.Match[str], c: Clause) -> str:
    claim = re.sub(r"^(?:just|only)\s+", "", bare_phrase(c.text), flags=re.I)
    return cap(re.sub(r"\s+just\s+", " ", claim))


_F = "situation"
def _as_said(m: re.Match[str], c: Clause) -> str:
    """The claim is the clause itself, as the user said it (a rule's match only chose it)."""
    return cap(bare_phrase(c.text))


RULES: tuple[ClauseRule, ...] = (
    *(
        ClauseRule(
            "project_is",
            _F,
            building,
            lambda m, c: f"User is building {_cut(m.group(1))}",
            "fact",
            lambda m, c: (
                _bounded(_cut(m.group(1)), 12)
                and not re.search(r"\b(?:you|me)\b", _cut(m.group(1)), re.I)
                # "I want to create an /command that opens the chrome extension": the product
                # word sits in a relative clause; "… with the following specifications": a spec
                and bool(_PRODUCT_HEAD.match(m.group(1)))
                and not re.search(r"\bthe following\b", m.group(1), re.I)
                # "we need to write a script that queries all reports and updates …": a job
                # ("I'm building a script that backs up my photos nightly" is the user's tool)
                and not (
                    re.search(r"\bwrit(?:e|ing)\s+$", m.group(0)[: m.start(1) - m.start(0)], re.I)
                    and re.match(r"^(?:a|an)\s+(?:\S+\s+){0,3}?scripts?\s+(?:that|which|to)\b", m.group(1), re.I)
                )
                # "I want to make a better UI for my plugin": an improvement, the task at hand
                and not re.match(
                    r"^(?:a|an)\s+(?:better|nicer|improved|cleaner|simpler|new version)\b",
                    m.group(1),
                    re.I,
                )
            ),
        )
        for building in (_BUILDING, _WANT_TO_BUILD)
    ),
    ClauseRule(
        "project_is",
        _F,
        _IT_IS_A,
        lambda m, c: f"The project is {_cut(m.group(1))}",
        "fact",
        _obj_ok(12),
    ),
    ClauseRule(
        "built_with",
        _F,
        _BUILT_WITH,
        lambda m, c: f"The project is built with {bare_phrase(m.group(1) or m.group(2))}",
        "decision",
        lambda m, c: _bounded(bare_phrase(m.group(1) or m.group(2)), 10),
    ),
    ClauseRule(
        "user_role",
        _F,
        _I_AM_ROLE,
        lambda m, c: f"User is {_article(c.text)} {bare_phrase(m.group(1))}{_employer(m.group(2))}",
        "fact",
        # "I'm a data analyst at Meta (with a …)": the role and where; nothing else may follow
        lambda m, c: not m.group(2).strip(" .!,") or bool(_AT_ORG.match(m.group(2))),
    ),
    ClauseRule("user_machine", _F, _I_HAVE_MACHINE, _user_machine, "fact"),
    ClauseRule(
        "user_skill",
        _F,
        _I_KNOW,
        lambda m, c: f"User knows {m.group(1).lower()} {bare_phrase(m.group(2))}",
        "fact",
        _obj_ok(6, 2, cut=False),
    ),
    ClauseRule(
        "user_skill",
        _F,
        _I_DONT_KNOW,
        lambda m, c: f"User does not know much about {_cut(m.group(1))}",
        "fact",
        _obj_ok(6),
    ),
    ClauseRule("user_beginner", _F, _I_AM_NEW, "User is a beginner (new to this)", "fact"),
    ClauseRule(
        "user_skill",
        _F,
        _I_NEW_TO,
        lambda m, c: f"User is {m.group(1).lower()} {bare_phrase(m.group(2))}",
        "fact",
        _obj_ok(6, 2, cut=False),
    ),
    ClauseRule("user_place", _F, _I_WORK, _user_place, "fact"),
    ClauseRule(
        "user_place",
        _F,
        _I_LIVE,
        lambda m, c: f"User lives in {bare_phrase(m.group(1))}",
        "fact",
        lambda m, c: _bounded(m.group(1), 4) and m.group(1).split()[0].lower() not in PRONOUNS,
    ),
    ClauseRule(
        "user_env",
        _F,
        _MY_ENV,
        lambda m, c: f"User's {m.group(1).lower()} is {bare_phrase(m.group(2))}",
        "fact",
        lambda m, c: (
            _bounded(m.group(2), 5)
            and not STATUS_VALUE.match(m.group(2))
            and not re.match(r"^(?:getting|being|going)\b", m.group(2), re.I)
        ),
    ),
    ClauseRule(
        "answer_language",
        _F,
        _ANSWER_IN,
        lambda m, c: f"Answer in {m.group(1).capitalize()}",
        "preference",
    ),
    ClauseRule(
        "user_cares",
        _F,
        _I_CARE,
        lambda m, c: f"User cares about {bare_phrase(m.group(1))}",
        "preference",
        lambda m, c: _bounded(m.group(1), 10) and _not_this(1)(m, c),
    ),
    ClauseRule(
        "user_wary",
        _F,
        _I_WARY,
        lambda m, c: f"User is {m.group(1).lower()} about {_cut(m.group(2))}",
        "preference",
        _obj_ok(8, 2),
    ),
    ClauseRule(
        "dont_want",
        _F,
        _DONT_WANT_ON,
        lambda m, c: (
            f"User does not want {m.group(1)} {m.group(2)} their {bare_phrase(m.group(3))}"
        ),
        "constraint",
        lambda m, c: not vague(m.group(1)),
    ),
    ClauseRule(
        "rename",
        _F,
        _RENAMED,
        lambda m, c: (
            f"The {bare_phrase(m.group(1)) or 'project'} was renamed from {m.group(2)} to {m.group(3)}"
        ),
        "fact",
        lambda m, c: m.group(2).lower() not in PRONOUNS,  # "I renamed it to X": named before
    ),
    ClauseRule("rename", _F, _RENAME_TO, "The {1} is named {2}", "fact"),
    ClauseRule("rename", _F, _IS_NOW, _renamed_to, "fact"),
    # One spelling for "we replaced X with Y", "replace X with Y", "use Y instead of X":
    # restatements must converge to one claim.
    ClauseRule(
        "replaced",
        _F,
        _REPLACED,
        "Use {2}, not {1}",
        "decision",
        lambda m, c: m.group(1).lower() not in PRONOUNS,
    ),
    ClauseRule("replace", _F, _REPLACE_REQ, _replace_request, "decision"),
    ClauseRule("no_longer", _F, _NO_LONGER, _no_longer, "decision"),
    ClauseRule(
        "hosted",
        _F,
        _HOSTED,
        "{c}",
        "fact",
        lambda m, c: _no_pronoun(1)(m, c) and _bounded(m.group(4), 10),
    ),
    ClauseRule(
        "uses_version",
        _F,
        _USES_VERSION,
        "{1} uses {2}",
        "fact",
        lambda m, c: m.group(1).split()[0].lower() not in PRONOUNS | {"the"},
    ),
    ClauseRule(
        "no_circumstances",
        _F,
        _NO_CIRCUMSTANCES,
        lambda m, c: f"Never {bare_phrase(_EVER.sub('', m.group(2)))}",
        "constraint",
        _obj_ok(12, 2, cut=False),
    ),
    ClauseRule(
        "generic_should",
        _F,
        _GENERIC_SHOULD,
        _as_said,
        "constraint",
        lambda m, c: (
            _bounded(m.group(3), 12)
            and not _task_requirement(m.group(1))
            # "everything should be wired correctly": a check on this work
            and not re.match(r"^(?:every|any)\s?thing\s*$", m.group(1), re.I)
            # "each machine would need to clone it", "anything looking here will need to …":
            # a consequence talked through, not a rule
            and not CONSEQUENCE_SUBJECT.search(m.group(1))
            and not WORK_CHECK.search(m.group(3))
            # "each lesson should only be visible to students": a thing of the product, its spec
            and not product_spec(_QUANTIFIER_WORD.sub("", m.group(1)), m.group(3))
            # "the variables should …", "all three projects need to …": the things at hand
            and not re.match(
                r"^(?:the\s|all\s+(?:the\s|\d|two|three|four|five|of\s))", m.group(1), re.I
            )
        ),
    ),
    ClauseRule(
        "all_via",
        _F,
        _ALL_VIA,
        _all_via,
        "constraint",
        lambda m, c: m.group(3).lower() not in PRONOUNS and toolish(m.group(3)),
    ),
    ClauseRule(
        "ensure_file",
        _F,
        _ENSURE_FILE,
        lambda m, c: cap(f"{m.group(1)} {m.group(2)}"),
        "constraint",
        _obj_ok(12, 2, cut=False),
    ),
    ClauseRule("be_style", _F, _BE_STYLE, _as_said, "preference"),
    ClauseRule("reply_style", _F, _REPLY_STYLE, _as_said, "preference"),
    ClauseRule(
        "built_with",
        _F,
        _BUILD_AROUND,
        lambda m, c: f"The project is built {m.group(1).lower()} {_cut(m.group(2))}",
        "decision",
        _obj_ok(8, 2),
        search=True,
    ),
    ClauseRule(
        "using_instead",
        _F,
        _USING_INSTEAD,
        "Use {1} instead of {2}",
        "decision",
        lambda m, c: toolish(m.group(1)) and toolish(m.group(2)),
        search=True,
    ),
    ClauseRule(
        "replace",
        _F,
        _REPLACE_IMP,
        "Use {2}, not {1}",
        "decision",
        lambda m, c: (
            toolish(m.group(1))
            and toolish(m.group(2))
            and m.group(1).lower() != "it"
            and not {m.group(1).lower(), m.group(2).lower()} & _NOT_A_NAME
        ),
    ),
    ClauseRule(
        "naming",
        _F,
        _CALLED,
        _as_said,
        "decision",
        lambda m, c: (
            _bounded(m.group(2), 8)
            and _not_this(2)(m, c)
            and not _INVOKED.match(m.group(2))
            # "the file is called 'flows'", "the subfolder is called X": what this task opens
            and not re.search(
                r"\b(?:file|folder|subfolder|directory|dir|sheet|tab|page|document|doc|image)$",
                m.group(1),
                re.I,
            )
        ),
    ),
    ClauseRule(
        "naming",
        _F,
        _TREAT_AS,
        lambda m, c: f"Treat {m.group(1)} as {bare_phrase(m.group(2))}",
        "decision",
        _obj_ok(8, 2, cut=False),
    ),
    ClauseRule(
        "there_should",
        _F,
        _THERE_SHOULD,
        _as_said,
        "constraint",
        lambda m, c: _obj_ok(12, 2, cut=False)(m, c) and not _NO_CHANGE.match(m.group(2)),
    ),
    ClauseRule(
        "generic_should",
        _F,
        _RUN_ON_SHOULD,
        lambda m, c: cap(bare_phrase(m.group(1))),
        "constraint",
        lambda m, c: bool(_GENERIC_SHOULD.match(m.group(1))),
        search=True,
    ),
    ClauseRule(
        "disable",
        _F,
        _DISABLE,
        lambda m, c: f"{m.group(1).capitalize()} {bare_phrase(m.group(2))}",
        "decision",
    ),
    ClauseRule(
        "config_update",
        _F,
        _CONFIG_UPDATE,
        lambda m, c: cap(bare_phrase(m.group(1))),
        "preference",
        lambda m, c: _bounded(m.group(1), 14) and _not_this(1)(m, c),
    ),
    ClauseRule(
        "the_one_used",
        _F,
        _THE_ONE_USED,
        lambda m, c: f"The {bare_phrase(m.group(1))} used is {m.group(2)}",
        "fact",
        lambda m, c: not vague(m.group(2)),
    ),
    ClauseRule("keep_in", _F, _KEEP_IN, _keep_in, "decision", lambda m, c: not vague(m.group(1))),
)
# Shapes that run across clause breaks ("a service built with X and Y", "using X instead of
# Y"): the statement reader tries them on the whole sentence before splitting it.
WHOLE_SENTENCE = tuple(
    r for r in RULES if r.name in ("built_with", "using_instead", "the_one_used")
)
