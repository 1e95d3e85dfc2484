"""A learned last gate on the typed extractor's candidates: does the sentence a candidate came
from read as a durable rule or fact (a standing preference, a fact about the person, their
machine or project), or as talk about the work at hand (a step of the current edit, a question,
a hypothetical, the state of the code, a correction)?

The rules decide *what* a claim says; this gate only says *whether to keep it*: as an atom on
one mention, as pending (kept, but an atom only once the claim recurs in another session), or
not at all (`verdict`). It scores the
candidate's source sentence (found again in the statement) with a logistic regression over
structural and cue features — durable markers, deixis, question and conditional shapes, tense,
length, the rule family, the script — never over the words of a project, so that it carries
over to people whose prompts were never read. Its weights are data shipped in the package
(`resources/durability_weights.json`, trained by `benchmarks/train_durability.py` on TUNE
people only); inference is plain Python, a few regexes and a sum per candidate. A sentence
with an explicit standing-rule word (always / never / from now on / remember, in any language
the rules read — a plain "don't", in English or not, is no such word) and a tool named in a
rejection reason are never dropped (`EXEMPT`). Features are script-aware: a Han/kana run counts
as words at about two characters a word, and CJK sentences are cut at their own full stops.

Fail-safe direction: weights that are missing or malformed open the gate (every candidate is
kept, the rules alone decide, as before the gate existed). Extraction must never stop working
because of a data file; a missing file is a packaging bug that tests/test_durability.py catches.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from typing import TypeGuard

from agent_memory.extract.dispatch import MEMORY_STRONG, lasting_scope
from agent_memory.extract.filters import made_standing, memory_note
from agent_memory.extract.kept_list import asks_to_keep_a_list
from agent_memory.extract.paste import read_paste
from agent_memory.extract.remember_back import is_back_reference, is_forward_reference
from agent_memory.extract.standing import STANDING, STANDS_BY_ITS_SHAPE
from agent_memory.extract.text import FENCE, QUOTES, mask, sentences, strip_lead
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

WEIGHTS_RESOURCE = "durability_weights.json"
FORMAT = 1

# --- cues ---------------------------------------------------------------------------------------
# Each cue is a named regex over the (code-masked) sentence; a feature fires when it matches.
# Cues say how a sentence is put, not what it is about.

_CUES: dict[str, str] = {
    # standing-rule markers
    "always": r"\b(?:always|every time|each time|whenever|by default|as a rule|in general|"
    r"generally|consistently|everywhere)\b",
    "never": r"\bnever\b|\bdon't ever\b|\bnot ever\b",
    # an explicit standing-rule word (see EXEMPT)
    "standing": r"\b(?:always|never|from now on|going forward|remember)\b",
    "from_now": r"\b(?:from now on|going forward|in the future|from here on|moving forward|"
    r"henceforth|in future|next time|until (?:told|i say) otherwise)\b",
    "remember": r"\b(?:remember|keep in mind|note that|fyi|for your information|bear in mind|"
    r"make a note|memori[sz]e|save (?:this|that|it) (?:in|to) (?:your )?memory)\b",
    "prefer": r"\b(?:prefer|i'd rather|i would rather|i like|i love|i hate|i dislike|"
    r"i don't like|my preference|favou?rite)\b",
    "i_use": r"\b(?:i|we)\s+(?:use|run|work (?:on|with|in|at|for)|develop|deploy|host|code|"
    r"write|live|am based|'re based|have|own|maintain|mostly|usually|normally|typically)\b",
    "i_am": r"\b(?:i'm|i am|we're|we are)\s+(?:on|using|running|a|an|based|from|in|at|working|"
    r"the)\b",
    "my_np": r"\b(?:my|our)\s+(?:machine|laptop|computer|setup|terminal|shell|editor|os|team|"
    r"company|job|role|workflow|stack|server|home|dotfiles|config|style|convention|language|"
    r"timezone|name|employer|org|preference)\b",
    "generic_subject": r"^(?:the|our|this)\s+(?:project|repo|repository|codebase|app|team|"
    r"company|service|api|backend|frontend|ci|pipeline)\b",
    "modal_rule": r"\b(?:must|should always|must never|should never|have to always|need to always|"
    r"make sure (?:to|you) (?:always|never))\b",
    "dont": r"^(?:please\s+)?(?:don't|do not|avoid|stop)\b",
    # (the sentence's own full stop does not hide a contrast at its end: "Prefer tabs over spaces.")
    "use_x_not_y": r"\b(?:instead of|rather than|(?:not|over)\s+\w+[\s.!]*$)",
    "because": r"\b(?:because|since|so that|otherwise|as it|since it)\b",
    # bound to the conversation
    "deixis": r"\b(?:this|that|these|those|here|there|above|below|it|them)\b",
    # a demonstrative with a noun after it ("this file"), not "that" as a conjunction or
    # "this" as a pronoun ("note that the …", "this is broken": no noun follows)
    "deixis_np": r"\b(?:this|that|these|those)\s+(?!project\b|repo\b|repository\b|codebase\b)"
    r"(?!(?:{func})\b)\w+",
    # the artifact of the work at hand as the head of its phrase ("fix the file", "the test
    # fails"), not as a modifier of another noun ("the PR base branch is dev": its head is
    # "branch"; the PR is not what is talked about). A head is followed by the end, a mark, a
    # function word or a word shaped like a verb.
    "the_artifact": r"\bthe\s+(?:file|function|method|class|component|test|tests|page|button|"
    r"line|lines|code|script|error|bug|issue|output|result|change|changes|commit|pr|branch|"
    r"endpoint|query|table|field|form|modal|screen|view|style|css|layout|header|footer|plan|"
    r"doc|docs|readme|section|step|task|feature|implementation)\b"
    r"(?=\s*(?:$|[^\w\s]|(?:{func}|{verb})\b|\w*[^\Ws]s\b|\w+(?:ed|ing)\b))",
    "pronoun_start": r"^(?:it|this|that|these|those|they|them|he|she)\b",
    "you_did": r"\byou(?:'ve| have)?\s+(?:just\s+)?(?:did|made|wrote|added|changed|removed|broke|"
    r"forgot|missed|created|deleted|said|used|put)\b|\byour\s+(?:change|fix|edit|code|version|"
    r"answer|suggestion|plan)\b",
    # asking
    "question_mark": r"[?？]",
    "wh_start": r"^(?:what|why|how|which|who|where|when|whose|whom)\b",
    "aux_start": r"^(?:is|are|am|was|were|do|does|did|can|could|would|will|shall|should|may|"
    r"might|have|has|had|isn't|aren't|doesn't|don't you|didn't|won't|wouldn't)\b",
    "request_start": r"^(?:please\s+)?(?:can|could|would|will)\s+(?:you|u|we)\b|"
    r"^(?:i want you to|i need you to|i'd like you to|let's|lets)\b",
    "tell_me": r"\b(?:tell me|explain|show me|let me know|any idea|wonder|not sure|confused)\b",
    # hypothetical / conditional
    "cond_start": r"^(?:if|when|unless|once|in case|as long as)\b",
    "hypothetical": r"\b(?:what if|suppose|imagine|would it|could it|would be|could be|might be|"
    r"maybe|perhaps|probably|i think|i guess|not sure|seems|looks like)\b",
    # the task at hand
    "imperative_edit": r"^(?:please\s+)?(?:fix|add|change|update|remove|delete|make|create|"
    r"implement|refactor|rename|move|write|build|run|check|test|try|look|review|open|show|"
    r"debug|continue|start|finish|revert|undo|commit|push|install|set up|setup|replace|put|"
    r"modify|edit|adjust|clean|read|go|give|find|help|investigate)\b",
    "requirement": r"\b(?:should|needs? to|has to|have to|must)\s+(?:be|show|display|have|"
    r"contain|include|return|work|look|appear|stay|match|go|use|take|support|handle|say)\b|"
    r"\b(?:each|every)\s+\w+\s+(?:should|must|needs)\b",
    "i_want": r"\b(?:i want|i need|i'd like|we need|we want|i would like)\b",
    "now_task": r"\b(?:now|currently|right now|at the moment|for now|yet|still|again|already|"
    r"today|first|next|then|after that|finally)\b",
    # the state of the code or of the run
    "code_state": r"\b(?:doesn't work|does not work|isn't working|not working|broken|fails?|"
    r"failing|failed|crash(?:es|ed)?|error|errors|bug|wrong|missing|undefined|null|exception|"
    r"works now|still|issue|problem)\b",
    "past": r"\b(?:was|were|did|had|got|went|tried|ran|said|saw|found|made|added|changed|"
    r"broke|fixed|worked|happened|i've|we've|you've|been)\b",
    "ed_words": r"\b\w{3,}ed\b",
    # correction chatter
    "correction": r"^(?:no+|nope|nah|wrong|not that|not quite|wait|stop|ugh|hmm+|oops|"
    r"actually)\b",
    "emphasis": r"!{2,}|\b(?:wtf|omg|seriously|dude|come on)\b",
    "thanks": r"\b(?:thanks|thank you|great|perfect|awesome|nice|cool|good job|looks good|lgtm)\b",
    # other shapes
    "negation": r"\b(?:not|no|don't|never|without|nothing)\b",
    "first_person": r"\b(?:i|i'm|i've|i'd|my|me|mine)\b",
    "we": r"\b(?:we|our|us|we're|we've)\b",
    "you": r"\b(?:you|your|you're)\b",
    "code_span": "\ue000",
    "path": r"(?:\S/\S|~/|\b\w[\w-]*\.(?:py|js|ts|tsx|jsx|go|rs|md|json|ya?ml|toml|sh|rb|java|"
    r"c|cpp|h|css|html|sql|lua|nix|conf)\b)",
    "number": r"\b\d+\b",
    "tool_word": r"\b(?:npm|pnpm|yarn|bun|pip|uv|poetry|cargo|go|brew|apt|docker|git|vim|neovim|"
    r"nvim|emacs|vscode|zsh|bash|fish|tmux|macos|mac|linux|ubuntu|fedora|arch|windows|wsl|"
    r"python|typescript|javascript|rust|node|deno|react|vue|postgres|sqlite|redis|aws|gcp|"
    r"azure|vercel|terminal|shell|editor|ide)\b",
}
# Words that are not nouns of a phrase: articles, pronouns, auxiliaries, prepositions,
# conjunctions (what follows a phrase's head, or what a pronoun is followed by).
_FUNC = (
    "a|an|the|this|that|these|those|it|its|is|are|was|were|be|been|being|am|do|does|did|has|"
    "have|had|can|could|will|would|shall|should|may|might|must|and|or|but|so|if|when|then|than|"
    "as|of|in|on|at|to|for|from|with|by|into|onto|about|over|under|after|before|up|down|out|"
    "off|not|no|i|you|he|she|we|they|me|him|her|us|them|my|your|our|their|his|what|which|who|"
    "where|why|how|all|any|each|every|some|also|just|only|too|now|here|there|please|again|"
    "first|instead|yet|anymore|isn't|aren't|"
    "doesn't|don't|didn't|won't|can't|wasn't|weren't|i'm|i've|i'd|you're|we're|it's|that's"
)
# Verbs of a plural subject that carry no verb ending ("the tests pass").
_BARE_VERB = (
    "run|work|fail|pass|break|look|show|need|go|stay|keep|take|load|return|render|crash|"
    "hang|seem|appear|use|say|get"
)
_CUES = {name: rx.replace("{func}", _FUNC).replace("{verb}", _BARE_VERB)
         for name, rx in _CUES.items()}  # fmt: skip
_CUE_RES = [(name, _lazy(rx, re.I)) for name, rx in _CUES.items()]

# A plain copular fact: a noun phrase, "is"/"are", a predicate ("The default branch is dev.",
# "Our API docs are in docs/api"), not a question, not a pronoun or demonstrative for subject
# ("this is broken", "it is fine"), not a passing state for predicate ("the build is red").
_COPULA = _lazy(
    r"^(?:(?:the|our|my|all)\s+)?(?!(?:{func})\b)[\w./@+#-]+(?:\s+(?!(?:{func})\b)[\w./@+#-]+)"
    r"{{0,4}}\s+(?:is|are)\s+(?!(?:{state})\b)\S".format(
        func=_FUNC,
        state="not|n't|it|this|that|these|those|there|here|what|which|who|to|being|going|gonna|"
        "trying|also|just|so|too|now|broken|wrong|missing|failing|failed|crashing|down|red|empty|undefined|null|"
        "still|already|done|fixed|ready|working|running|expired|gone|stuck|slow|fine|ok|okay|"
        "good|bad|great|weird|off|better|worse|correct|incorrect|right|same|different",
    ),
    re.I,
)

# Markers of other languages, by script or function word (the extractor's language rules already
# ask for an explicit marker; these say whether one is there).
_MULTI: dict[str, str] = {
    "ml_always": r"总是|總是|始终|始終|永远|永遠|一律|每次|常に|必ず|いつも|毎回|всегда|каждый раз|"
    r"\bsiempre\b|\bsempre\b|\btoujours\b|\bimmer\b|\bjedes mal\b|항상|언제나|매번",
    # never-words only: "never" is exempt in English, "don't" is not (see x_ml_dont)
    "ml_never": r"绝不|絕不|决不|決不|从不|從不|永远不|永遠不|永不|二度と|決して|никогда|"
    r"\bnunca\b|\bjamais\b|\bniemals\b|\bmai\b",
    "ml_remember": r"记住|記住|记得|記得|覚えて|запомни|помни|\brecuerda\b|\blembr|\bsouviens|"
    r"\bmerk dir\b|기억해|기억하세요|기억해\s*줘",
    # the language to be answered in ("中文回答", "中文交互", "日本語でお願いします"): a preference
    # about every reply, whatever its length (short CJK ones scored as one-liners)
    "ml_reply_language": r"(?:中文|简体中文|簡體中文|繁體中文|繁体中文)(?:回答|回复|回覆|交互|交流|对话|對話)|"
    r"(?:用|使用)(?:中文|简体中文)(?:回答|回复|回覆|交流)|日本語で(?:回答|返答|答え|お願い)|"
    r"(?:한국어|한글)로\s*(?:답|대답|응답)",
    "ml_prefer": r"喜欢|喜歡|偏好|更喜欢|好き|предпочита|люблю|\bprefiero\b|\bprefiro\b|\bpréfère",
    "ml_deixis": r"这个|這個|那个|那個|这里|這裡|この|その|ここ|\bэто\b|\bэтот\b|\bэта\b|\bтут\b|"
    r"\besto\b|\beste\b|\besta\b|\bisso\b|\bisto\b|\bcette\b|\bceci\b|\bdieser\b|\bdiese\b",
    "ml_question": r"吗|嗎|呢[？?]|か[？?。]?$|\bли\b|\bpor qué\b|\bporque\?|\bpourquoi\b|\bwarum\b",
}
# The same shapes in the languages the rules read, under the English cue's name where they
# mean the same (so that a Chinese "I" weighs what an English one does), x_ml_* otherwise.
_MULTI_SAME: dict[str, str] = {
    "first_person": r"我|私|僕|俺|나는|저는|내가|제가|\bя\b|\bмы\b|\bмой|\bмне\b|\byo\b|\bmi\b|"
    r"\beu\b|\bmeu\b|\bminha\b|\bje\b|\bj'|\bmon\b|\bich\b|\bmein",
}
_MULTI_X: dict[str, str] = {
    # a plain don't / forbidden ("不要", "别", "禁止", "しないで", "не надо", "нельзя"): like
    # English "don't", a step of this turn as often as a standing rule, so scored, not exempt
    "x_ml_dont": r"不要|別|别|禁止|しないで|するな|しないこと|не надо|нельзя|\bне (?:нужно|"
    r"используй|делай|трогай|меняй)|\bno (?:uses|hagas|cambies|toques)\b|\bnão (?:use|faça|"
    r"mude|mexa)\b|\bne (?:touche|change|modifie)\b",
}
_MULTI_RES = [
    (name, _lazy(rx, re.I)) for name, rx in {**_MULTI, **_MULTI_SAME, **_MULTI_X}.items()
]

_WORD = _lazy(r"[^\W\d_]+(?:'[^\W\d_]+)?|\ue000\d+\ue001", re.U)
# Han and kana are written without spaces: a run of them is many words, about one per two
# characters (Hangul is spaced by word, so it counts as written).
_CJK_CHAR = _lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def word_count(text: str) -> int:
    """Words of a sentence in any script: spaced words, plus a Han/kana run at ~2 chars a word."""
    cjk = len(_CJK_CHAR.findall(text))
    if not cjk:
        return len(_WORD.findall(text))
    return len(_WORD.findall(_CJK_CHAR.sub(" ", text))) + (cjk + 1) // 2


def weighted_length(text: str) -> int:
    """A statement's length in Latin-equivalent characters: a Han/kana character says about as
    much as three Latin ones (a word and its space), so a short Chinese prompt is not read as a
    one-liner."""
    return len(text) + 2 * len(_CJK_CHAR.findall(text))


def _script(text: str) -> str:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return "none"
    cjk = sum(1 for ch in letters if "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af")
    if cjk * 5 > len(letters):
        return "cjk"
    if sum(1 for ch in letters if "\u0400" <= ch <= "\u04ff") * 3 > len(letters):
        return "cyrillic"
    if sum(1 for ch in letters if ord(ch) > 0x7F) * 30 > len(letters):
        return "latin_accented"
    return "latin"


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for edge in edges:
        if n <= edge:
            return f"<={edge}"
    return f">{edges[-1]}"


def _cues(sentence: str) -> set[str]:
    low = sentence.lower()
    feats = {name for name, rx in _CUE_RES if rx.search(low)}
    # Cues that read how a sentence opens also read it past its filler ("ok, fine, let's do
    # X" opens with "let's"), as the rules do (text.strip_lead).
    bare = strip_lead(low)
    if bare != low:
        feats.update(name for name, rx in _CUE_RES if rx.search(bare))
    if "?" not in low and (_COPULA.search(low) or _COPULA.search(bare)):
        feats.add("copula_fact")
    feats.update(name for name, rx in _MULTI_RES if rx.search(sentence))
    return feats


@dataclass(frozen=True)
class Parsed:
    """A statement as the gate reads it: its prose sentences (code-masked, as the extractor
    sees them, CJK ones cut at their own full stops) and its length in Latin-equivalent
    characters."""

    sents: tuple[str, ...]
    chars: int


def sentence_features(parsed: Parsed, index: int, family: str | None) -> list[str]:
    """The binary features of one sentence of a statement: its cues, its shape, where it sits
    in the statement, and the rule family of the candidate it gave (None: it gave none).
    Sorted, so that scoring sums in one fixed order (deterministic floats)."""
    s = parsed.sents[index].strip()
    count = len(parsed.sents)
    feats = {"bias"} | _cues(s)
    feats.add("words" + _bucket(word_count(s), (3, 6, 10, 16, 25, 40)))
    feats.add("script=" + _script(s))
    if s.endswith(("?", "？")):
        feats.add("ends_question")
    if s.endswith(("!", "！")):
        feats.add("ends_bang")
    if s[:1].islower():
        feats.add("lower_start")
    feats.add("position=" + ("only" if count == 1 else "first" if index == 0 else
                             "last" if index == count - 1 else "middle"))  # fmt: skip
    feats.add("sentences" + _bucket(count, (1, 2, 4, 8)))
    feats.add("statement_chars" + _bucket(parsed.chars, (80, 200, 500, 1500)))
    if family:
        feats.add("family=" + family)
    # Pairs the cues cannot say alone: a marker inside a question, deixis in a rule.
    if "question_mark" in feats and ("always" in feats or "never" in feats):
        feats.add("rule_in_question")
    if "deixis_np" in feats and ("always" in feats or "never" in feats or "dont" in feats):
        feats.add("deictic_rule")
    if "imperative_edit" in feats and ("the_artifact" in feats or "deixis" in feats):
        feats.add("edit_of_artifact")
    if "first_person" in feats and "past" in feats:
        feats.add("narration")
    return sorted(feats)


# --- the statement a candidate came from ------------------------------------------------------


_CJK_STOP = _lazy(r"(?<=[。！？])")


def _cjk_lines(text: str) -> list[str]:
    """A statement with Han or kana in it: a mostly-CJK line is one piece (cut at its full stops
    later); any other line is split into sentences as English is (an English paragraph with one
    CJK word in it is still several sentences)."""
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if len(_CJK_CHAR.findall(line)) * 3 >= len(line.strip()):
            out.append(line)
        else:
            out.extend(sentences(line))
    return out


@functools.lru_cache(maxsize=512)
def parse_statement(text: str) -> Parsed:
    """The statement as the gate reads it (see `Parsed`)."""
    body = FENCE.sub("\n", text[:12000].translate(QUOTES))
    masked, _ = mask(body)
    sents: list[str] = []
    # Han and kana text is read line by line, cut at its own full stops: the English splitter
    # takes a long CJK line for code (its letters are not Latin) and would leave the gate the
    # statement's short lines only, scoring a claim on a line it did not come from. The same
    # when the splitter finds no prose at all (the language rules read some such statements).
    pieces = _cjk_lines(masked) if _CJK_CHAR.search(masked) else sentences(masked)
    for sent in pieces or masked.splitlines():
        sents.extend(p for p in _CJK_STOP.split(sent) if p.strip())
    if not sents:
        sents = [text]
    return Parsed(tuple(sents), weighted_length(text))


_KEY = _lazy(r"[^\W_]{3,}", re.U)


def _keys(text: str) -> set[str]:
    return {w.lower() for w in _KEY.findall(text)}


def source_index(sents: tuple[str, ...], claim: str) -> int:
    """Which sentence a claim most likely came from: the one sharing the most words with it (the
    claim is a tidied form of a piece of one sentence); the first one on a tie."""
    if len(sents) <= 1:
        return 0
    want = _keys(claim)
    best, best_n = 0, -1
    for i, sent in enumerate(sents):
        n = len(want & _keys(sent))
        if n > best_n:
            best, best_n = i, n
    return best


def candidate_features(statement: str, claim: str, rule: str) -> list[str]:
    """Features of a candidate: those of the sentence of `statement` it came from."""
    parsed = parse_statement(statement)
    i = source_index(parsed.sents, claim)
    family = rule.split(".", 1)[0] if rule else None
    feats = sentence_features(parsed, i, family)
    if _said_to_last(statement, parsed.sents, i, rule):
        feats = sorted({*feats, "standing"})
    # (the statement's only sentence: "I use Jest. It was replaced …" goes on, "For this demo
    # only. I use Firefox." was bounded before it)
    if (
        rule in OWN_SETUP_RULES
        and len(parsed.sents) == 1
        and _own_setup_only(strip_lead(parsed.sents[i]))
    ):
        feats = sorted({*feats, "own_setup"})
    if rule in STANDS_BY_ITS_SHAPE:
        feats = sorted({*feats, "standing_shape"})
    if rule == "language.answer_language" and "ml_reply_language" not in feats:
        # the rules read a reply language in more ways than the cue's words ("说中文", "用英文回答",
        # "responde en español"); whichever read it, it is the same preference (see EXEMPT)
        feats = sorted([*feats, "ml_reply_language"])
    return feats


def _said_to_last(statement: str, sents: tuple[str, ...], i: int, rule: str) -> bool:
    """Whether sentence `i` is said to last in a way the rules read beyond the "standing" cue's
    own words, so that it carries the cue (see EXEMPT)."""
    said = sents[i]
    lead = strip_lead(said)
    return (
        # "request a review. Make that standard in your workflow.": the next sentence says this
        # one is meant to last, as "from now on" in it would
        (i + 1 < len(sents) and made_standing(said, sents[i + 1]))
        # "<statement>. Remember this." / "…。これを覚えておいて。": asked to be kept after it
        or (i + 1 < len(sents) and is_back_reference(sents[i + 1]))
        # "Remember the following. <statement>": asked to be kept before it, the message's only
        # other sentence
        or (i == 1 and len(sents) == 2 and is_forward_reference(sents[0]))
        # "use tabs in the future so that …", "until told otherwise, …": a scope the rules read as
        # "from now on" (dispatch.lasting_scope: not a plan, a purpose, a change put off or a
        # question)
        or lasting_scope(lead)
        # "add to your memory that X", "save to memory: X": asked to be kept, as "remember" says
        or bool(MEMORY_STRONG.match(lead))
        # "以后都用pnpm", "앞으로 pnpm을 사용해줘": the rules read "from now on" in other languages
        # (rules/lang_scope._FROM_NOW); said so, a rule is meant to last as the English one is
        or rule == "language.from_now_on"
        or _kept_whole(statement)
    )


@functools.lru_cache(maxsize=512)
def _kept_whole(statement: str) -> bool:
    """Whether the whole statement asks to be kept, whichever of its sentences a candidate came
    from: "# X" (the old memory shortcut), a list asked to be kept ("CLAUDE.mdに以下のルールを
    含めてください：\n- …", "Please update CLAUDE.md with the following:\n- …"). Read once a
    statement (the paste reader goes through every line), not once a candidate."""
    return memory_note(statement) or asks_to_keep_a_list(statement) or read_paste(statement)[1]


# A statement that only says what the person works with ("I use brave", "im using xcode",
# "I'm on Fedora."), read by a rule of the person's own setup: a fact about them that lasts
# however short it is (the model's length cues held "I use brave" under the drop threshold).
# On TUNE people every such statement is labelled durable. A team's "we use X" is left to the
# model: its rule reads "Use X" as a preference or a fact by its object, and the exemption
# would add no TUNE statement it does not already keep. An object the rules do not read as a
# thing used ("I'm on it", "I use this to…") gives no candidate, so nothing is exempted for it.
OWN_SETUP_RULES = frozenset({"fact.user_uses", "fact.user_on", "situation.user_uses"})
# (a few words, the statement's only sentence: "I use Jest. It was replaced by Vitest last week."
# goes on in its next sentence, "I use Jest — it was replaced …" after a dash)
_OWN_SETUP = _lazy(
    r"^\W*i\s*(?:'m|’m|m| am)?\s+(?:use|using|on)\s+[\w.+#/-]+(?:\s+[\w.+#/-]+){0,4}"
    r"(?:\s*,\s*not\s+[\w.+#/-]+(?:\s+[\w.+#/-]+){0,2})?\s*[.!]*$",
    re.I,
)
# "I use brave and the page is blank", "I use Jest but it was replaced by Vitest": the sentence
# goes on past the setup (to a problem, a change, a request) and the model judges it, whatever
# the claim kept of it. A list of what is used ("vscode and zsh") or a contrast (", not zsh")
# does not go on.
_RUN_ON = _lazy(
    r"\b(?:and|but|so|which|because|though|although|while|whereas|till|until)\s+\S+\s+\S|"
    r",(?!\s*not\b)|;",
    re.I,
)


def _own_setup_only(sentence: str) -> bool:
    return bool(_OWN_SETUP.match(sentence)) and not _RUN_ON.search(sentence.rstrip(" .!"))


# Candidates the gate never drops: a sentence carrying an explicit standing-rule word ("always",
# "never", "from now on", "remember", or their equivalents in other languages) says itself that
# it is meant to last, wherever it sits (a rule typed in the middle of a long pasted prompt);
# a reply language said ("中文回答") is a preference about every reply however short it is;
# a tool named in a rejection reason ("use pnpm" against a refused npm command) is not
# prose the model has seen enough of to judge; and a statement that only says the person's own
# setup (OWN_SETUP_RULES) is a fact about them; nor does a rule whose shape says it stands
# (standing.STANDS_BY_ITS_SHAPE: "X is banned from the codebase", "… before every commit").
EXEMPT = frozenset(
    {
        "standing",
        "ml_always",
        "ml_never",
        "ml_remember",
        "ml_reply_language",
        "family=rejection",
        "own_setup",
        "standing_shape",
    }
)


def exempt(feats: list[str]) -> bool:
    return not EXEMPT.isdisjoint(feats)


# --- held for a second mention -----------------------------------------------------------------
# Two shapes the gate keeps on one mention (a standing word exempts them, or they score over the
# keep bar) that are, on people the rules were not written from, mostly requirements of the task
# at hand: such a candidate is pending instead (an atom once the claim is said again in another
# session), never dropped. Chosen on TUNE people only (first contact, and every rule version's
# candidates gated out of fold at the keep bar): neither cost a durable statement there.
#
# A claim naming a definite artifact of this task: "this function", "the script", "any other
# files", "anything else", "in your response" (this answer; "in your responses" is every answer),
# "for now", "for this task", "your solution". "Never paste full files in your response" is about
# the answer at hand however "never" it is said. The project, repository and codebase are no
# artifact of a task.
_ARTIFACT = (
    r"script|file|files|function|method|class|component|page|notebook|cell|module|endpoint|"
    r"prompt|diff|pr|pull request|ticket|issue|task|plan|spreadsheet|sheet|slide|query|section|"
    r"paragraph|screen|view|form|table|chart|graph|document|doc|readme|test|implementation|"
    r"feature|change|changes|code"
)
_TASK_ARTIFACT = _lazy(
    rf"\b(?:this|that|these|those)\s+(?:{_ARTIFACT})\b|"
    r"\bthe\s+(?:above|following|attached|given)\s+\w|"
    r"\bthe\s+(?:script|notebook|spreadsheet)\b|"
    r"\b(?:any|all|the)\s+other\s+(?:files?|code|parts?|things?|lines?|components?|modules?|"
    r"sections?|places?|functions?|tests?|pages?|screens?|scripts?)\b|"
    r"\banything else\b|\bthe rest of the\b|"
    r"\bin\s+(?:your|this|the)\s+(?:next\s+|chat\s+|final\s+)?(?:response|answer|reply|output)\b"
    r"(?!s)|"
    r"\b(?:for now|this time|for this (?:task|change|pr|step|ticket|feature|fix|one)|"
    r"in this (?:session|conversation|chat|task|pr|step))\b|"
    # the assistant's own piece of work at hand ("I like your solution", "prefer your revert
    # …"); "your changes", "your answer", "your plan" are also said of every one ("always show
    # me your plan first")
    r"\byour\s+(?:solution|suggestion|fix|edit|version|approach|idea|implementation|revert|"
    r"draft|proposal)\b(?!s)",
    re.I,
)
# A prohibition (directive.negative, "Never X" / "Don't X" / "Avoid X") the rules found inside a
# request for a piece of work, its sentence not opening with it: "… make syntax cleaner without
# changing existing batch processing", "Ensure all links work and don't leave out any pages" — a
# part of the request ("I'm colorblind, avoid red/green only indicators" asks for no work). One
# that opens its sentence ("Do not use mocks in integration tests.", "Please don't add
# comments.", "I don't want (you) to …") is left to the score, and so are the
# person's own "I don't want X" ("User does not want …") and "we don't …": statements about
# them, not orders.
_PROHIBITION_CLAIM = _lazy(r"^(?:Never|Don't|Do not|Avoid)\b")
_OPENS_WITH_PROHIBITION = _lazy(r"^(?:please\s+)?(?:don'?t|do not|never|avoid|stop|no)\b", re.I)
_OWN_WISH = _lazy(r"\bi\s+(?:don'?t|do not)\s+want\b", re.I)
# What makes the sentence a request for a piece of work: it opens with the work asked for, or
# the prohibition bounds the work as "without <doing>" does.
_WORK_ASKED = _lazy(
    r"^(?:please\s+)?(?:ensure|make sure|make|fix|add|update|change|create|implement|refactor|"
    r"write|build|use|move|rename|remove|clean|convert|generate|set up|setup|port|rewrite|allow)"
    r"\b|\bwithout\s+\w+ing\b",
    re.I,
)
# "… update AGENTS.md about this", "let's update your global rules to include this": asked to be
# written into the agent's standing instructions, as "remember" asks.
_RECORD_IT = _lazy(
    r"\b(?:update|add (?:this |that |it )?to|put (?:this |that |it )?in|"
    r"write (?:this |that |it )?(?:in|into|to)|include (?:this|that|it) in)\s+(?:your\s+|the\s+)?"
    r"(?:global\s+|project\s+)?(?:rules|instructions|memory|agents\.md|claude\.md|guidelines)\b",
    re.I,
)


_NO_WORD_LEAD = _lazy(r"^[^\w\ue000]+")


def _asked_to_last(statement: str, sentence: str, feats: list[str]) -> bool:
    """Said to last beyond a plain always/never: a lasting scope ("from now on"), a memory
    request, or asked to be written into the agent's rules."""
    return (
        "from_now" in feats
        or lasting_scope(sentence)
        or memory_note(statement)
        or bool(MEMORY_STRONG.match(sentence))
        or bool(_RECORD_IT.search(statement))
    )


def held_for_recurrence(statement: str, claim: str, rule: str, feats: list[str]) -> bool:
    """Whether a candidate the gate would keep on one mention is pending instead (see above):
    a claim naming an artifact of the task at hand, or a prohibition set inside a longer request
    with no standing word."""
    parsed = parse_statement(statement)
    # (past what opens it and is no word: a bullet, a quote, a stray control character)
    sentence = strip_lead(_NO_WORD_LEAD.sub("", parsed.sents[source_index(parsed.sents, claim)]))
    if _asked_to_last(statement, sentence, feats):
        return False
    if _TASK_ARTIFACT.search(claim):
        return True
    return (
        rule == "directive.negative"
        and bool(_PROHIBITION_CLAIM.match(claim))
        and not exempt(feats)
        # a standing word in the rules' own sense ("until further notice", "unless I ask") or
        # the gate's ("as a rule", "by default")
        and "always" not in feats
        and not STANDING.search(sentence)
        and not _OPENS_WITH_PROHIBITION.match(sentence)
        and not _OWN_WISH.search(sentence)
        and bool(_WORK_ASKED.search(sentence))
    )


# --- the model ----------------------------------------------------------------------------------


# What a candidate becomes (`verdict`). KEEP: an atom on one mention. PENDING: kept on the
# store's branch but not yet an atom anyone sees (not recalled, not reported by `extract` as an
# atom, not promotable): it becomes one when the same claim is said again in another session
# (`atom.merge`), since "a fact climbs because it recurred". DROP: nothing is kept.
# The keep bar (`keep_threshold` of the weights file, 0.80) was chosen on TUNE people only, out
# of fold (benchmarks/train_durability.py, gate retrained per person, 191 people), by a rule
# fixed before looking: the highest precision on every rule version's candidates (rule output
# not yet fitted to those people, the nearest thing to strangers) among bars that keep at least
# 90% of the durable statements the current rules find at the drop bar on one mention. Every
# version P 0.585 at 0.60 (0.599 with the bare-don't bar this replaced), 0.702 at 0.80 (134
# hits / 57 false, from 155 / 110), current rules 130 -> 122 durable statements found on one
# mention (0.85 keeps 109: 84%). What lies between is not lost: said again in another session,
# it is an atom with both sightings.
# (This replaces a stricter bar for bare "don't X" alone: such a candidate under 0.80 was
# dropped, now it waits for recurrence like any other.)
KEEP, PENDING, DROP = "keep", "pending", "drop"


@dataclass(frozen=True)
class Model:
    weights: dict[str, float]
    # under this a candidate is dropped
    threshold: float
    # at or over this (or exempt) a candidate is an atom on one mention; in between it is
    # pending until it recurs. Never under `threshold` (`bar`).
    keep_threshold: float = 0.0

    @property
    def bar(self) -> float:
        return max(self.threshold, self.keep_threshold)

    def probability(self, feats: list[str]) -> float:
        z = math.fsum(self.weights.get(f, 0.0) for f in feats)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def _is_bar(value: object) -> TypeGuard[float]:
    """A probability to compare with: a number in [0, 1] (JSON true is no number here)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and 0.0 <= float(value) <= 1.0
    )


def parse(raw: str) -> Model | None:
    """The model in a weights file's text; None when it is not one this code can use."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    weights, threshold = data.get("weights"), data.get("threshold")
    if not isinstance(weights, dict) or not weights:
        return None
    single = data.get("keep_threshold", threshold)
    if not _is_bar(threshold) or not _is_bar(single):
        return None
    clean: dict[str, float] = {}
    for name, value in weights.items():
        if not isinstance(name, str) or not isinstance(value, (int, float)):
            return None
        if isinstance(value, bool) or not math.isfinite(value):
            return None
        clean[name] = float(value)
    return Model(clean, float(threshold), float(single))


def read_packaged() -> str | None:
    """The shipped weights file's text, None when the package does not hold it."""
    try:
        ref = resources.files("agent_memory").joinpath("resources").joinpath(WEIGHTS_RESOURCE)
        return ref.read_text("utf-8")
    except (OSError, UnicodeDecodeError, ModuleNotFoundError):
        return None


@functools.lru_cache(maxsize=1)
def packaged_model() -> Model | None:
    raw = read_packaged()
    return parse(raw) if raw is not None else None


def score(statement: str, claim: str, rule: str, model: Model) -> float:
    """P(durable) of a candidate (`rule` is its "family.rule") under `model`."""
    return model.probability(candidate_features(statement, claim, rule))


def verdict(statement: str, claim: str, rule: str, model: Model | None) -> str:
    """KEEP, PENDING or DROP (see KEEP). With no usable model (missing or malformed weights)
    every candidate is kept (see the module's docstring). A candidate kept on one mention that
    `held_for_recurrence` holds is PENDING, exempt or not."""
    if model is None:
        return KEEP
    feats = candidate_features(statement, claim, rule)
    if exempt(feats):
        found = KEEP
    else:
        p = model.probability(feats)
        found = KEEP if p >= model.bar else PENDING if p >= model.threshold else DROP
    if found == KEEP and held_for_recurrence(statement, claim, rule, feats):
        return PENDING
    return found


def keep(statement: str, claim: str, rule: str, model: Model | None) -> bool:
    """Whether the candidate is an atom on one mention under `model`."""
    return verdict(statement, claim, rule, model) == KEEP


def gate(statement: str, claim: str, rule: str) -> str:
    """The pipeline's gate: `verdict` under the weights shipped in the package."""
    return verdict(statement, claim, rule, packaged_model())


def durable(statement: str, claim: str, rule: str) -> bool:
    """Whether the shipped gate makes the candidate an atom on one mention."""
    return gate(statement, claim, rule) == KEEP
