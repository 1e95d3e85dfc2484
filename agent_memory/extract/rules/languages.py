"""Explicit-marker rules in other languages: never / always / don't / I don't want / remember /
use X instead of Y / I have X, in Chinese, Japanese, Russian, Portuguese, French, Italian,
Spanish and German. Only the unambiguous forms: a marker at the start of a sentence (after politeness)
followed by an imperative, or a fixed "X instead of Y" frame. The claim keeps the user's own
sentence and language (no translation, nothing lost) behind an English polarity label —
"Never: …", "Don't: …", "Always: …", "Remember: …", "Use X, not Y" — so the negation is
explicit to everything downstream (contradictions, review) whatever the language.

This module reads a statement (`language_claims`) and holds the rule table's order (`RULES`);
the entries live by script and concern (lang_reply, lang_cjk, lang_markers, lang_setup,
lang_habit, lang_topic), as do the words they share (lang_words), the reading of scope
(lang_scope), of negation (lang_negation), of "X instead of Y" (lang_instead), of asking to
keep a rule (lang_memory), of the user (lang_user) and of a choice (lang_choice)."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_choice import choice
from agent_memory.extract.rules.lang_cjk import CJK_RULES
from agent_memory.extract.rules.lang_habit import EVERY_TIME_RULES
from agent_memory.extract.rules.lang_instead import switch
from agent_memory.extract.rules.lang_markers import ANY_LANGUAGE_RULES, LATIN_RULES, RU_RULES
from agent_memory.extract.rules.lang_memory import (
    ADD_RULE_FIRST,
    HABIT_LATIN,
    JA_NOT_DOING,
    JA_REMEMBER_TAIL,
    KO_REMEMBER_TAIL,
    REMEMBER_WORD,
    REMEMBERED_FACT,
    REMIND_TO,
    SAVE_FIRST,
    SAVE_FIRST_LATIN,
    SAVE_THAT,
    SITUATION_KEPT,
    memory_request,
    remembered_rule,
)
from agent_memory.extract.rules.lang_negation import rule_negated
from agent_memory.extract.rules.lang_reply import REPLY_LANGUAGE_RULES, answer_language
from agent_memory.extract.rules.lang_scope import (
    DURABLE,
    HEAD,
    HEDGE,
    NOW,
    from_now_on,
    question,
    task_bound,
)
from agent_memory.extract.rules.lang_setup import SETUP_RULES
from agent_memory.extract.rules.lang_topic import TOPIC_RULES
from agent_memory.extract.rules.lang_user import about_the_user
from agent_memory.extract.rules.lang_words import CJK, KANA, NON_ENGLISH, TOOL, TOOL2, Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Sentence ends in these languages (CJK punctuation has no space after it).
_SPLIT = _lazy(r"(?<=[。！？；!?;])\s*|(?<=[.])\s+|\n+")


# (pattern on the sentence, label, kind, sub-rule), tried in this order: the first that reads a
# sentence (and is not skipped for it) makes its claim.
RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    *REPLY_LANGUAGE_RULES,
    *CJK_RULES,
    *RU_RULES,
    *ANY_LANGUAGE_RULES,
    *SETUP_RULES,
    *LATIN_RULES,
    *EVERY_TIME_RULES,
    *TOPIC_RULES,
]


_TOPIC_SUBS = frozenset(sub for _, _, _, sub in TOPIC_RULES)
_MAX = 160
# A long statement (a pasted brief, plan, document or reply) is read at its first and last
# lines only: the rules inside a pasted system prompt or a task's requirements list are that
# document's, not the user's standing rules ("禁止泛词：…", "1. 不要改变现有系统设计").
_LONG_CHARS = 300
_LONG_LINES = 5


def _spoken(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(text) <= _LONG_CHARS and len(lines) <= _LONG_LINES:
        return text
    if len(lines) <= 1:
        # One long paragraph, typed: its first and last sentences frame it ("X 始终放在根目录。
        # 另外……？"); the middle is the task's detail or a passage quoted.
        said = [x for x in _SPLIT.split(text) if x and x.strip()]
        # (one run-on sentence is read for its clauses about the user only: see language_claims)
        return said[0] + "\n" + said[-1] if len(said) > 1 else text
    # (an indented last line continues a pasted list or plan: "- 案B：…⏎    フロントエンドは…")
    last = lines[-1] if not re.match(r"^(?:\s{2,}|\t)", lines[-1]) else ""
    return lines[0] + "\n" + last


def language_claims(text: str) -> list[Hit]:
    """(claim, kind, sub-rule) for the explicit-marker sentences of a non-English statement."""
    out: list[Hit] = []
    # A plain don't closing a longer request ("…crie um relatório md com os erros. NÃO USE
    # SUBAGENTS PARA AS COMPARAÇÕES.") bounds that request, as in English (standing.py: a
    # constraint among more than two sentences needs a standing marker of its own); said first,
    # with its reason after it, it is the point of the statement ("Não use português no código.
    # Imagine alguém lendo isso daqui a dez anos…").
    pieces = [x.strip(" \t,，、:：-") for x in _SPLIT.split(text) if x.strip()]
    request = len(pieces) > 2
    for raw in _SPLIT.split(_spoken(text)):
        sentence = raw.strip(" \t,，、:：-")
        if sentence.startswith("#") and not _LIST_OR_HEADING.match(sentence):
            sentence = sentence.lstrip("#")  # "#всегда …": Claude Code's memory-note prefix
        if not sentence or not NON_ENGLISH.search(sentence):
            continue
        if _LIST_OR_HEADING.match(sentence):
            continue  # "- **记住你**：…", "## 禁止…": a document's item, not the user talking
        # A long run-on sentence (typed by voice, "…, eu uso o kitty com zsh, …") holds no rule
        # the markers can bound, but a clause about the user stands on its own.
        # (a sentence that opens by asking for the rule to be kept is read whole however long)
        asked = (
            SAVE_THAT.match(sentence)
            or SAVE_FIRST_LATIN.match(sentence)
            or SAVE_FIRST.match(sentence)
            or ADD_RULE_FIRST.match(sentence)
        )
        hit = _sentence(sentence) if len(sentence) <= _MAX or asked else about_the_user(sentence)
        closing = request and sentence != pieces[0] and not DURABLE.search(sentence)
        if hit and closing and hit[2] in _PLAIN:
            continue
        if hit:
            out.append(hit)
    return out


_LIST_OR_HEADING = _lazy(r"^\s*(?:#+\s|[-*•|>]|\d{1,2}[.)、]\s*(?:\*\*|#))")


# "Don't use <tool>": a tool named in code letters is a standing preference even unmarked.
_USE_TOOL = _lazy(
    rf"(?:不要用|不要使用|别用|別用|不用|не\s+используй(?:те)?|não\s+(?:use|usar|utilize)|"
    rf"no\s+(?:uses|usar|utilices)|n'utilise(?:z)?\s+(?:pas|jamais)|non\s+usare|"
    rf"(?:verwende|benutze|nutze)\s+(?:kein(?:e|en)?|nicht))\s*{TOOL}",
    re.I,
)
# The plain imperatives that are mostly about the turn at hand ("不要改代码", "你不要创建文件了",
# "não mexa no header"): kept only with a durability word or a tool to avoid.
_PLAIN = frozenset(
    (
        "zh_dont",
        "ja_dont",
        "ko_dont",
        "ru_dont",
        "pt_dont",
        "fr_dont",
        "it_dont",
        "es_dont",
        "de_dont",
    )
)


# Chunks of a sentence: its clauses, and in Chinese the runs a space sets apart ("不要降低品质
# 不能降低标准 一定要精雕细琢所有的细节" is three exhortations, not one rule about all details).
_CHUNK = _lazy(r"[,，;；]|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def _plain_kept(body: str, pattern: re.Pattern[str]) -> bool:
    """A plain don't is kept with a tool to avoid, or a durability word in its own chunk."""
    if _USE_TOOL.search(body):
        return True
    return any(
        pattern.search(c.strip()) and DURABLE.search(c) for c in _CHUNK.split(body)
    ) or bool(DURABLE.search(_CHUNK.split(body, 1)[0]) and pattern.search(body))


# "组长说过"永远不要…"，所以…": another person's words in quotes after a verb of saying — the user
# reports them (the English reader leaves quoted speech out too), and the rest is the task's
_QUOTED_SPEECH = _lazy(r"(?:说|說|讲|講|表示|提到|告诉我|告訴我)(?:过|過)?\s*[:：]?\s*[“\"「『]")


def _ruled(body: str, sentence: str, japanese: bool, facts_only: bool) -> Hit | None:
    """The first of the rule table's patterns that reads the sentence and is not skipped for it
    (a question keeps only facts)."""
    # An "always"/"never" rule is bound to the task only by its own clause: "всегда пиши кратко,
    # длинно только если это попросили" keeps a deictic word in its condition, not in the rule.
    head = HEAD.split(body, 1)[0]
    bound_head = task_bound(head)
    bound = bound_head or task_bound(body)
    # "我现在想做一个…系统": what the user builds now is what they build, not the task's now
    now_only = bound_head and not task_bound(NOW.sub(" ", head))
    for pattern, label, kind, sub in RULES:
        if _rule_skipped(body, pattern, label, sub, japanese, bound, bound_head, now_only):
            continue
        if facts_only and label not in _FACT_LABELS:
            continue
        m = pattern.search(body)
        if not m:
            continue
        if label == "Remember":
            remembered = _remembered(body, sentence, japanese, sub)
            if remembered:
                return remembered
            continue
        if sub in _FACT_CLAUSE_SUBS:
            body = _fact_clause(body, m.end(), japanese, sub)
        return (f"{label}: {body}" if label else body), kind, sub
    return None


def _sentence(sentence: str) -> Hit | None:
    # "1.我之前是…": the number of the user's point, not part of what is said
    body = _POINT_NUMBER.sub("", sentence).rstrip("。.!！?？;；")
    if _QUOTED_SPEECH.search(body):
        return None
    facts_only = question(sentence, body)
    asked_last = sentence.rstrip().endswith(("?", "？"))
    # "为什么不直接用 X 代替 Y 呢？" asks about a switch (or proposes one); it rules nothing
    hit = (None if facts_only else switch(sentence)) or answer_language(body)
    if hit:
        return hit
    if len(body) < 4:
        return None
    hit = about_the_user(body, asked_last=asked_last)
    if hit:
        return hit
    if ADD_RULE_FIRST.match(body) and not asked_last:
        # "md中再加一个规则，…输出什么位置…": asking for a rule is no question, whatever words follow
        return memory_request(body)
    if facts_only:
        body = _before_the_asking(body)
        if not body:
            return None
    hit = None if facts_only else (from_now_on(body) or memory_request(body))
    if hit:
        return hit
    japanese = bool(KANA.search(body))
    hit = _ruled(body, sentence, japanese, facts_only)
    if hit:
        return hit
    if facts_only:
        # "我们采用 X 作为框架，…深度思考如何更新设计": a choice said before a question word that
        # asks nothing of the user (no question mark) still stands; "vamos usar X, o que acha?"
        # offers it for approval, so a question mark keeps it out
        return None if asked_last else _choice(body)
    return _always_clause(body) or _choice(body) or _dont_use(body, japanese)


# The facts whose claim is their own clause: "我用的是 X，帮我配置…" goes on to a task.
_FACT_CLAUSE_SUBS = frozenset(("i_use", "i_dont_use", "project_is", "account", "rename_project"))


def _rule_skipped(
    body: str,
    pattern: re.Pattern[str],
    label: str,
    sub: str,
    japanese: bool,
    bound: bool,
    bound_head: bool,
    now_only: bool,
) -> bool:
    """Whether a rule of the table may not speak for this sentence, before it is tried."""
    if japanese and sub.startswith("zh_"):
        return True  # 別 (other) in "別の人から…" is Japanese, not 别 (don't)
    if (bound_head and not (now_only and label == "Project")) or (
        bound and label not in _HEAD_BOUND
    ):
        return True
    return bool(
        (sub in _PLAIN and not _plain_kept(body, pattern))
        # "если нужно всегда можешь …": a condition, not a rule
        or (sub in ("must_always", "want_always") and HEDGE.search(body))
        # "如果有空，测试都要先跑一遍": the topic-first rule holds on a condition
        or (sub in _TOPIC_SUBS and HEDGE.search(body))
        # "хочу, чтобы ты всегда проверял это": the wish is said after the first comma
        or (sub == "want_always" and bound)
    )


def _fact_clause(body: str, end: int, japanese: bool, sub: str) -> str:
    """The fact a fact rule matched, cut to its own clause (what it is goes on for a project)."""
    rest = HEAD.split(body[end:])
    if japanese:
        # "nvimを使っているのですが、…できなくなりました": the fact ends where "but …"
        # turns to the problem (、 also lists things in Chinese, so only in Japanese)
        rest[0] = _JA_BUT.sub("", rest[0].split("、", 1)[0])
    fact = body[:end] + rest[0].rstrip()
    if sub == "project_is":  # "…系统，这个系统可以…，内容以…为主": what it is, fact on
        for clause in rest[1:]:
            if not _GOES_ON.match(clause.strip()) or len(fact) > 120:
                break
            fact += "，" + clause.strip()
    return fact


def _choice(body: str) -> Hit | None:
    """A choice made (lang_choice.py), unless the sentence points at the task at hand ("vamos
    usar Docker aqui", "будем использовать curl, чтобы проверить это")."""
    return None if task_bound(body) else choice(body)


# The always/never entries whose marker opens a clause: "Documente o que falta, sempre teste com
# vitest" holds a standing rule in its second clause, as "…，始终用中文回复" and "…, никогда не
# пушь в main" do. Only these: a plain don't in a later clause is mostly the task's.
_CLAUSE_RULES = frozenset(
    (
        "zh_never",
        "zh_always",
        "ja_never",
        "ko_always",
        "ko_never",
        "ru_never",
        "ru_always",
        "pt_never",
        "pt_always",
        "id_never",
        "id_always",
        "fr_never",
        "fr_always",
        "it_never",
        "it_always",
        "es_always",
        "es_never",
        "de_always",
    )
)
_AND = _lazy(
    r"^(?:(?:e|y|et|und|и|а|mas|pero|mais|ma|aber|но)\s+|(?:并且|並且|而且|但是|另外)\s*)", re.I
)
_CLAUSE_CUT = _lazy(r"[,，;；(（)）]|\s[-–—]\s")


# A first clause that says when, where or unless the rule after it holds: "如果是生产环境，永远不要…",
# "除了脚本目录，…", "si es producción, nunca …", "если это прод, никогда …", "em produção, sempre …".
# Cut off, the rule holds everywhere (the user allowed the rest).
_CONDITION_HEAD = _lazy(
    r"^(?:如果|假如|要是|除了|除非|当|當|在|对于|對於|もし|만약|"
    r"(?:si|excepto|salvo|cuando|durante|en|se|exceto|quando|em|no|na|nos|nas|sauf|quand|pendant|dans|"
    r"tranne|wenn|falls|außer|ausser|bei|während|im|если|кроме|при|когда|в|на|jika|kalau|kecuali|saat)"
    r"(?!\w))",
    re.I,
)


def _always_clause(body: str) -> Hit | None:
    """An always/never rule said as a later clause of a sentence (the first clause is the
    sentence's own, read by the rules above); a short condition said first goes with it."""
    pieces = _CLAUSE_CUT.split(body)
    head = pieces[0].strip()
    for n, clause in enumerate(pieces[1:], start=1):
        clause = _AND.sub("", clause.strip())
        if len(clause) < 6 or task_bound(clause) or HEDGE.search(clause):
            continue
        for pattern, label, kind, sub in RULES:
            if sub in _CLAUSE_RULES and pattern.search(clause):
                if n == 1 and _CONDITION_HEAD.match(head) and len(head) <= 30:
                    return f"{label}: {body[: body.find(clause) + len(clause)]}", kind, sub
                return f"{label}: {clause}", kind, sub
    return None


# "…，注意使用node_modules里的jest，不要用npm run test", "使用AppleScript重构，不再使用Swift": a
# tool not to use (any more), said as a clause of its own that ends with the tool's name — a
# clause going on after the name ("不要用test页面", "不要用 lastMsgTime 代理") names a thing of the
# task, not a tool; so does a name with an underscore ("不再使用 requires_skill_data", a field of
# the code in a pasted diff). A deictic word elsewhere in the sentence is the task's ("这个命令的-u
# 不好用").
_DONT_USE_CLAUSE = _lazy(
    r"^(?:注意|记得|記得|并且|並且|但是|另外|以后|以後|你)?\s*(?:不要|别|別|不再|不要再|别再|別再)"
    rf"(?:用|使用)\s*(?![\w.@/+#-]*_){TOOL2}(?:\s+[A-Za-z][\w.:-]*){{0,3}}\s*(?:了)?$"
)


# The same in Japanese, the tool first and the asking last: "graphite cli は使わないで",
# "yarnはもう使わないでください" — the whole clause is the tool and the asking (a clause naming
# more, "このファイルでは lodash を使わないで", is about a thing of the task).
_JA_DONT_USE_CLAUSE = _lazy(
    rf"^{TOOL2}(?:\s+[A-Za-z][\w.:-]*){{0,2}}\s*(?:は|を|も)\s*(?:もう|今後|二度と)?\s*"
    r"使わないで(?:ください|下さい|ほしい(?:です)?|ね)?$"
)
# And in Korean: "yarn은 사용하지 마", "npm은 더 이상 쓰지 마세요", "moment.js를 사용하지 말 것".
_KO_DONT_USE_CLAUSE = _lazy(
    rf"^{TOOL2}(?:\s+[A-Za-z][\w.:-]*){{0,2}}\s*(?:은|는|을|를|도)\s*(?:더\s*이상\s*|앞으로\s*|절대\s*)?"
    r"(?:사용하지|쓰지)\s*(?:마|마세요|마라|말아\s*줘|말아\s*주세요|말\s*것|말자)$"
)


def _dont_use(body: str, japanese: bool = False) -> Hit | None:
    patterns = (_JA_DONT_USE_CLAUSE,) if japanese else (_DONT_USE_CLAUSE, _KO_DONT_USE_CLAUSE)
    for clause in (body.split("、") if japanese else HEAD.split(body)):
        clause = clause.strip().rstrip(".!")
        if any(p.match(clause) for p in patterns) and not task_bound(clause):
            return f"Don't: {clause}", "constraint", "dont_use_tool"
    return None


def _before_the_asking(body: str) -> str:
    """ "我们要做一个…系统，知道了吗", "我用的是 X，怎么配置?": a fact said before the question still
    stands; the clauses before the first one asking ("" when the first clause asks)."""
    said = []
    for clause in HEAD.split(body)[:-1]:  # the last clause is the one asking
        if question(clause, clause.strip()):
            break
        said.append(clause)
    return "，".join(said)


def _remembered(body: str, sentence: str, japanese: bool, sub: str) -> Hit | None:
    """The claim of a "remember …" sentence: the marker says it already ("Remember: <what>"),
    and what is remembered may itself be a rule. None: nothing said to keep."""
    what = REMEMBER_WORD.sub("", body, count=1).strip() or body
    what = KO_REMEMBER_TAIL.sub("", JA_REMEMBER_TAIL.sub("", what)).strip() or what
    if len(what) < 5:
        return None  # nothing said to keep
    if SITUATION_KEPT.match(what) and not HABIT_LATIN.search(what):
        return None  # "não esqueça, o pior problema é …", "lembre-se que precisamos …": this work's
    if REMIND_TO.match(body) and not HABIT_LATIN.search(what):
        # "lembre-se de verificar o console", "n'oublie pas de relancer le build": a step of this
        # work recalled, as English "remember to …" (dispatch.REMIND) unless said as a habit
        return None
    inner = _sentence(what) if what != sentence else None
    # "记住往后回复都用中文", "lembre que usamos pnpm": what is remembered is itself a rule
    if inner:
        return inner
    if len(what.split()) < 3 and not (CJK.search(what) or KANA.search(what)):
        return None  # "запомни пароль": what is to be kept is not said
    if japanese and JA_NOT_DOING.search(what):  # "…しないことを覚えて"
        return f"Don't: {what}", "constraint", sub
    if remembered_rule(what, body) and not REMEMBERED_FACT.match(what):
        # "запомни: не трогай папку legacy", "记住：提交信息用英文写": what is kept is a rule
        # (an imperative, a modal), so the kind is the rule's and a negation is said in English
        if rule_negated(what, body):
            return f"Don't: {what}", "constraint", sub
        return f"Remember: {what}", "constraint", sub
    return f"Remember: {what}", "fact", sub


# Rules whose claim stands in the sentence's first clause: a deictic word further on ("我一直用
# vim，这个文件帮我改一下") belongs to the task that follows, not to the rule or fact.
_HEAD_BOUND = frozenset(
    ("Always", "Never", "Uses", "Does not use", "Environment", "Project", "Account", "Renamed")
)
# A clause that goes on describing the thing just named ("这个系统可以…", "内容主要以…为主").
_GOES_ON = _lazy(
    r"^(?:这个|這個|该|該|此|这款|這款)(?:系统|系統|网站|網站|应用|應用|平台|工具|项目|項目|app)|"
    r"^(?:它|内容|內容|主要|面向|针对|針對|用户|用戶|数据|數據)(?!.*(?:吗|嗎|呢|？|\?))",
    re.I,
)
_JA_BUT = _lazy(r"(?:のですが|んですが|んだけど|のだけど|けれども|けれど|けど|が)$")
_FACT_LABELS = frozenset(("Uses", "Does not use", "Environment", "Project", "Account"))
_POINT_NUMBER = _lazy(r"^\s*\d{1,2}\s*[.、)）]\s*(?=\S)")
