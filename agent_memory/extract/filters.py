"""Filters and vocabularies shared by the extraction rules: what makes an object vague,
transient or bound to the conversation (a memory line must stand alone)."""

from __future__ import annotations

import re

from agent_memory.extract.text import strip_lead, words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# --- filters shared by the rules ----------------------------------------------------------

DET = r"(?:the|a|an|this|that|these|those|my|your|our|his|her|their|its|some|any)"
VAGUE = _lazy(
    r"^(?:(?:much|really|very|so|too|quite|at all|even|just|also|again)\s+)*"
    r"(?:it|this|that|these|those|them|him|her|anything|something|nothing|everything|stuff|things|"
    # "use you", "let's not confuse ourselves": the assistant or the speakers, no thing chosen
    r"you|yourself|yourselves|ourselves|itself|themselves|"
    # "go with your path", "use your approach": the assistant's proposal of this turn, accepted
    r"your\s+(?:\w+\s+)?(?:path|approach|plan|suggestion|idea|solution|version|option|proposal|"
    r"recommendation|way|fix|implementation|pick|choice)|"
    r"the same|so|one|either|both|"
    # "always follow the instructions/pattern": the ones just given, not a named guide
    r"the (?:instructions?|pattern|patterns|plan|steps|rules|example|examples|template|format|"
    r"guidelines?)(?:\s*/\s*\w+)?|"
    r"the (?:first|second|third|last|former|latter|other|previous|new|old|original|current)"
    r"(?: (?:one|ones|version|option|approach|solution|way|variant|draft|idea))?|"
    r"(?:this|that|these|those)\s+\S+|option\s+\S+|number\s+#?\d+\w*|#\d+|\d+)"
    r"(?:\s+(?:one|ones|way|again|anymore|please|too|either|then|now|here|there))?\s*[.!?]*$",
    re.I,
)
TRANSIENT = _lazy(
    r"\b(?:for now|right now|at the moment|for the moment|this time|yet|today|tonight|tomorrow|"
    r"yesterday|temporarily|for this (?:task|session|pr|change|one|commit|file|step|run|test|branch)|"
    r"just this once|for a (?:sec|second|minute|moment|bit)|in this (?:pr|commit|session|task|step)|"
    r"until (?:i|we)\b|you just|the above|above|previous|earlier|(?:for|in|on) the new \w+|"
    r"^(?:our|the|my) (?:old|former|temporary|temp) \w+|in the old code|"
    r"last (?:one|step|change|commit|message|answer|response))\b",
    re.I,
)
DEICTIC_REF = _lazy(
    r"\b(?:what you (?:did|just|wrote|said)|your (?:last|previous) \w+|i just|you just|just showed|"
    r"your (?:recent )?(?:change|changes|fix|edit|edits|commit|patch|suggestion|version|refactor)|"
    r"that (?:function|file|method|class|version|approach|change|test|line|snippet|module|"
    r"component|script|endpoint|query|loop|variable|bug|error|commit|pr|output|answer)|"
    # what was said or written in this conversation: "keep the version I wrote"
    r"(?:i|you|we)\s+(?:just\s+)?(?:wrote|made|sent|pasted|mentioned|described|discussed|showed|"
    r"shared|gave|had|did|added|created|suggested|proposed)|"
    r"(?:nothing|anything|everything|something|nobody|no one) else|the other (?:one|ones|files?|"
    r"functions?|components?|pages?|tabs?|parts?|changes?|tests?|places?|versions?|branch)|"
    r"as (?:before|discussed|above|below|mentioned)|like (?:before|above|i said)|"
    r"as you (?:say|said|suggest|suggested|mention|mentioned|propose|proposed|recommend|recommended)|"
    # the thing at hand, named in an earlier turn: "the impl I have laid out", "on that position"
    r"(?:i|you|we)\s*(?:have|'ve)\s+(?:just\s+)?(?:\w+ed|laid|written|made|done|built|set up|put)|"
    # "our notes of what we have been trying": what this conversation has been doing
    r"(?:i|you|we)\s*(?:have|'ve)\s+been\s+\w+ing|"
    r"(?:on|in|at|from|with|of|for)\s+that\s+(?!is\b|was\b|are\b|were\b|way\b)[a-z]\w*|"
    # the scope of this edit: "don't change anything but the layout", "any other element except",
    # "I don't want you doing anything more than adding the fields"
    r"(?:anything|nothing|any other \w+)\s+(?:but|except|besides|apart from|other than|"
    r"more than))\b",
    re.I,
)
# The things a task's requirements are about (what a card, a page or a row should show): a
# quantified or modal rule whose subject is one of these is a spec of the work at hand
# ("each card should show a due date"), not a standing rule of the person or the project.
TASK_NOUNS = words(
    """
card cards page pages screen screens modal modals dialog dialogs button buttons tab tabs form
forms field fields row rows column columns cell cells item items entry entries list lists table
tables chart charts graph graphs icon icons label labels title titles header headers footer
footers sidebar sidebars menu menus link links image images picture pictures section sections
view views panel panels widget widgets tooltip tooltips popup popups banner banners badge badges
input inputs checkbox checkboxes dropdown dropdowns slider sliders toggle toggles avatar avatars
node nodes element elements component components box boxes tile tiles post posts product
products user users player players game games level levels question questions answer answers
result results record records slide slides step steps task tasks ticket tickets order orders
feature features function functions method methods endpoint endpoints response responses
request requests output outputs report reports email emails message messages notification
notifications event events line lines word words character characters object objects point
points asset assets
"""
)
# What every project's way of working has: a must/should rule whose subject is one of these is
# a convention of the person or the project ("commits should be signed", "all tests must use a
# real database", "agents should run everything inside nix-shell"). Any other subject names a
# thing of the product being built ("bookings should never overlap", "all invoices have to
# include the tax id", "holidays should always block the calendar"): its spec, the work at hand.
CONVENTION_NOUNS = words(
    """
agent agents subagent subagents assistant claude you we i operation operations command commands
commit commits pr prs pull branch branches merge merges change changes edit edits diff diffs
test tests testing spec specs check checks lint linting build builds ci release releases deploy
deploys deployment deployments code codebase comment comments doc docs documentation readme
changelog note notes file files folder folders directory directories path paths name names naming
variable variables import imports type types typing dependency dependencies package packages
migration migrations secret secrets log logs logging error errors script scripts tool tools hook
hooks workflow workflows config configs configuration settings format formatting style indentation
todo todos plan plans task tasks session sessions memory reply replies answer answers message
messages prompt prompts output outputs work module modules class classes library libraries helper
helpers util utils utilities handler handlers controller controllers service services route routes
model models interface interfaces anything everything something
"""
)
# A conduct verb after the modal: the subject is whoever does the work ("jeeves should always
# confirm before deleting branches"), whatever it is called.
_CONDUCT = _lazy(
    r"^(?:(?:always|never|not|only|also|first)\s+)*(?:ask|tell|confirm|wait|run|execute|follow|use|"
    r"commit|push|check|verify|read|write|answer|reply|respond|explain|mention|document|prefer|"
    r"avoid|try|stop|report|save|keep)\b",
    re.I,
)


def product_spec(subject: str, rest: str) -> bool:
    """A must/should rule about a thing of the product, not about how the work is done."""
    head = re.split(r"\s+of\s+", subject.lower(), maxsplit=1)[0]
    if any(w.strip("`.,'\"") in CONVENTION_NOUNS for w in head.split()):
        return False
    if re.search(r"[\ue000/.]", head):
        return False  # a path or a file name as the subject: where things go, a layout rule
    return not _CONDUCT.match(rest.strip())


# A hypothetical lifted out of a question or a musing: "if it were under src/ instead".
HYPOTHETICAL = _lazy(
    r"^(?:what if|suppose|supposing|imagine|hypothetically|assuming)\b|"
    r"\bif\b[^,;]{0,60}\b(?:were|would|could|had|might)\b|\b(?:would|could|might) (?:it|that|this|we|you) be\b",
    re.I,
)
# "these variables", "this file": bound to the conversation, not a standalone memory line.
DEICTIC_NP = _lazy(
    r"\b(?:this|these|those)\s+(?!project\b|repo\b|repository\b|codebase\b|code base\b|app\b|"
    r"application\b|service\b|package\b|library\b|team\b|company\b|machine\b|computer\b|org\b|"
    r"organi[sz]ation\b|monorepo\b|workspace\b|tool\b|cli\b|site\b|website\b)[a-z]\w*",
    re.I,
)
STRONG_PATH = _lazy(r"(?:\S/|/\S|\\|~|\ue000)")
# A path written in a sentence (a regex piece): a slash in it ("../api", "src\\lib", "C:\\work",
# "./tests/"), or a masked code span.
PATH_WORD = r"(?:[\w.~@:-]*[/\\][\w.~@/\\-]*|\ue000\d+\ue001)"
# A subject that ends in a modal ("each machine would need to clone it", "anything looking here
# will need to …", "everyone'd have to"): a consequence talked through, not a rule.
CONSEQUENCE_SUBJECT = _lazy(r"\b(?:would|will|could|might|may|'d|'ll)\s*$", re.I)
# "all features must be fully operational", "everything should be wired correctly", "the app
# should be working": a check on this work, not a standing rule ("the working directory", "working
# copies" name things).
WORK_CHECK = _lazy(
    r"\b(?:correctly|properly|fully operational|as expected|working\b(?!\s+(?:cop(?:y|ies)|"
    r"dir(?:ector(?:y|ies))?|trees?|hours?|days?|branch(?:es)?|folders?|versions?|set|state)\b))\b",
    re.I,
)
TIME_SUBJECT = _lazy(
    r"\b(?:deadline|meeting|standup|demo|sprint|release date|launch|call|appointment|schedule|plan|"
    r"goal|priority|focus|budget|customer|client|boss|manager)\b",
    re.I,
)
STATUS_VALUE = _lazy(
    r"^(?:red|green|broken|down|up|failing|passing|slow|fast|fine|ok|okay|done|ready|wrong|empty|"
    r"missing|stuck|flaky|flakey|outdated|weird|strange|different|correct|right|messed|unavailable|"
    r"offline|online|full|huge|large|small|still|now|currently|already|again|also|too|very|really|"
    r"pretty|quite|so|kinda|bad|good|great|better|worse|working|running|gone|back|fixed|updated|"
    r"changed|confusing|unclear|a mess|a bit|a little|kind of|sort of|expired|invalid|revoked|valid|"
    r"unset|set|not set|required|needed|wrong|leaked|compromised|rotated|deleted|gone|lost)\b",
    re.I,
)
PROBLEM_SUBJECT = _lazy(
    r"\b(?:bug|bugs|problem|problems|issue|issues|error|errors|mistake|typo|fix|difference|change|"
    r"changes|question|answer|point|thing|catch|trick|culprit|reason|result|output|diff|total|sum|"
    r"count|number|value|date|time|price|deadline)\b",
    re.I,
)
PATHISH = _lazy(
    r"(?:/|\\|~|\ue000|\b\w[\w-]*\.\w{1,5}\b|\b(?:folder|directory|dir|repo|repository|package|module|"
    r"file|branch|bucket|server|host|machine|drive|vault|container|workspace|subfolder|subdirectory|"
    r"monorepo|cluster|namespace|wiki|notion|confluence|dropbox|drive|obsidian|s3|gcs)\b)",
    re.I,
)
QUANTIFIER = _lazy(
    r"\b(?:all|every|each|whenever|everywhere|always|never|only|any time|anytime|across the board)\b",
    re.I,
)
POLICY_VERBS = words(
    """
use switch move migrate stick keep avoid prefer support target follow adopt standardize
standardise rely drop pin require enforce deploy ship release host store name format write
lint test document type
"""
)
NEG_STOP = words(
    """
worry bother mind hesitate panic rush be know think understand care see get need have want
feel forget remember hate like mean believe agree wait stop expect assume guess wonder find
proceed continue go move start
"""
)
BLOCKED_OBJ_START = _lazy(
    r"^(?:up|going|on|in mind|at it|open|running|there|alive|around|track|quiet|calm|trying|but|and|"
    r"or|so|then|as is|as (?:it|they) (?:is|are)|in the loop|posted|me|us|you|"
    r"looking|working|in sync|an eye)\b",
    re.I,
)
OUTPUT_NOUN = _lazy(
    r"\b(?:answer|response|reply|summary|explanation|output|opinion|text|description|message|"
    r"essay|report|list|table|email|post|comment)s?\b",
    re.I,
)
LENGTHY = _lazy(
    r"\b(?:short|shorter|brief|concise|length|words|lines|paragraphs?|sentences?|pages?|tokens|"
    r"characters|under \d+|below \d+)\b",
    re.I,
)


def content_words(text: str) -> int:
    return len(re.findall(r"[A-Za-z\ue000][\w\ue000\ue001'-]*", text))


def vague(obj: str) -> bool:
    obj = obj.strip().rstrip(".!?,;:")
    if re.match(r"^(?:whatever|whichever|what|how|anything|something)\b", obj, re.I):
        return True
    scoped = re.match(
        r"^(?:it|them)\s+(?:on|in|for|with|across|at|to)\s", obj, re.I
    ) and QUANTIFIER.search(obj)
    if re.match(r"^(?:it|them)\b", obj, re.I) and not scoped:
        return True  # "use it in the checkout flow": bound to the conversation
    if re.match(rf"^{DET}\s+(?:\w+\s+)?ones?(?:$|\s+(?:from|in|on|at|under|we|you|i)\b)", obj, re.I):
        return True  # "the simpler one", "the one from core", "the ones we used"
    return not obj or bool(VAGUE.match(obj)) or content_words(obj) == 0


PRONOUNS = words(
    """
i we you it this that these those they he she there what which who how why everything
something anything nothing one
"""
)

# Verbs whose "it"/"them" is followed by what the thing must be ("make it depend on X", "keep it
# short", "don't make it only work on my machine"): the complement is the rule, so an unnamed
# "it" after them does not leave the rule without its object.
COMPLEMENT_VERBS = words("make keep leave let get have")


IMPERATIVES = words(
    """
use run write keep avoid add put call name make prefer check test commit push ask answer respond
reply format document comment follow stick install deploy be do create update remove delete
include import read open close start stop try prefix suffix wrap split merge rebase squash sign
tag lint type return raise throw log print store save load cache send mention cite link explain
show tell give mark label pin bump release ship review verify validate ensure double
"""
)

# "# never use any in TypeScript": older Claude Code kept a prompt opened by "#" as a memory;
# people still type it, newer versions send it on as a prompt. One line only: a heading is a line
# of a longer markdown message (a paste); "#!" or "#123" open no shortcut. The "#" needs no
# space after it ("#don't add …", as the shortcut was typed) when a letter and two more words
# follow — "#hashtag" or "#fix-123" alone is a tag or an issue, no note — or, in a script
# written without spaces, eight more characters ("#テストはdockerで実行する").
MEMORY_SHORTCUT = _lazy(
    r"^\s*#(?:\s+|(?=[^\W\d_][^\s#]*(?:\s+\S+){2})|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af][^\n]{7}))"
    r"(\S[^\n]*?)\s*$"
)
# A "#" line that also asks for this turn's work ("# we bundle with webpack, let's switch to vite",
# "# …, could you bump it", "… ?") is no note to keep: what it states is judged as said plainly.
_ASKS_NOW = _lazy(r"\blet(?:'s| us)\b|\b(?:can|could|would) you\b|\?\s*$", re.I)


def memory_note(text: str) -> bool:
    """A typed "# …" line the person asked to keep (see MEMORY_SHORTCUT)."""
    return bool(MEMORY_SHORTCUT.match(text)) and not _ASKS_NOW.search(text)


# "request a Copilot review. Make that standard in your workflow.": a sentence that makes the
# instruction just before it a standing one. "Make it the default" is a product setting of the
# task ("add a dark theme, make it the default", even "… from now on"), so standard/default
# count only with the workflow named.
# The words that say "from now on": a rule's scope (dispatch.SCOPE) and what a back reference
# may end with ("do that going forward") read the same list.
FROM_NOW_WORDS = r"from now on|from here on(?: out)?|going forward|moving forward|henceforth"
BACK_REFERENCE = _lazy(
    r"^(?:(?:and|also|please)\s+)*(?:"
    rf"(?:always\s+)?(?:do|keep doing)\s+(?:that|this|it|so)\s+(?:{FROM_NOW_WORDS}|"
    r"every time|each time|always|in (?:the )?future)|"
    r"always\s+do\s+(?:that|this|it)|"
    r"make\s+(?:that|this|it)\s+(?:a\s+)?(?:habit|standing rule)|"
    r"make\s+(?:that|this|it)\s+(?:a\s+|the\s+)?(?:standard|default)(?:\s+(?:practice|step))?"
    r"\s+(?:in|for|of)\s+(?:your|the|our)\s+(?:workflow|process|routine)|"
    r"make\s+(?:that|this|it)\s+(?:a\s+)?(?:standard\s+)?part\s+of\s+(?:your|the|our)\s+"
    r"(?:workflow|process|routine)"
    r")\s*[.!]*$",
    re.I,
)
# "request" opens an instruction here ("request a review") but is too often a noun ("request
# ids are logged") to join IMPERATIVES, which the rules read everywhere.
_INSTRUCTION_VERBS = IMPERATIVES | {"request"}


def opens_with_imperative(s: str) -> bool:
    """The sentence opens with an instruction's verb after the words any sentence may open with
    (text.strip_lead: "please run …", "also add …", "ok, run …")."""
    tokens = strip_lead(s).split()
    return bool(tokens) and tokens[0].lower() in _INSTRUCTION_VERBS


def made_standing(sentence: str, following: str) -> bool:
    """`following` is a back reference that makes the instruction `sentence` a standing one (read
    by the extractor and by the durability gate alike)."""
    return (
        bool(BACK_REFERENCE.match(following.strip()))
        and opens_with_imperative(sentence)
        and not sentence.rstrip().endswith("?")
    )


TRANSIENT_PREDICATE = _lazy(
    r"\b(?:pass|passes|passing|green|committed|compiles?|works?|working|done|finished|ready|"
    r"merged|pushed|fixed|broken|failing)\s*[.!?]*$|"
    # "make sure all packages are their latest versions": an upgrade to do now, a moving target
    r"\b(?:latest|newest|up[- ]to[- ]date|upgraded|updated|installed)\b",
    re.I,
)

TASKY = _lazy(
    r"\b(?:me|us)\b|\bto (?:give|show|tell|find|get|help|see|check|figure|explore|"
    r"search|investigate|debug|look|understand|analy[sz]e|summari[sz]e|answer)\b",
    re.I,
)

# What a like or dislike is about when it reacts to the conversation: the proposal on the table
# ("I like option 2", "I like the tests", "I don't like the polling wait", "I like two function
# approach"), not a standing taste ("I like tabs", "I'm not a fan of catppuccin").
REACTION_OBJECT = _lazy(
    r"^(?:(?:the|this|that|these|those|your|both|either|neither)\b|option\s|"
    r"(?:\S+\s+){0,3}(?:approach|approaches|option|options|idea|ideas|plan|plans|solution|"
    r"solutions|suggestion|suggestions|proposal|version|versions|names?|wording|change|changes)\b)",
    re.I,
)
