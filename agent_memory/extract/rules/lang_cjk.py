"""The rule-table entries of Chinese, Japanese and Korean: never / always / don't / remember,
a ban, what every one of a kind must be, the tool a thing is built or managed with — each a
marker at the start of the sentence (after politeness), as `languages.RULES` tries them."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_words import POLITE, TOOL, TOOL2
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

CJK_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # (pattern on the sentence, label, kind, sub-rule)
    (
        _lazy(
            rf"^(?:{POLITE})?(?:永远不要|永遠不要|绝对不要|絕對不要|千万不要|千萬不要|千万别|千萬別|绝对别|絕對別|"
            r"严禁|嚴禁|绝不|絕不|从不|從不)\s*\S"
        ),
        "Never",
        "constraint",
        "zh_never",
    ),
    # "所有文件都使用绝对路径", "所有提交都要写英文": what every one of a kind must be or use
    # (not "所有测试都通过了", a status).
    (
        _lazy(
            r"^(?:所有|全部|任何|每个|每個)[^，,。]{1,15}?都(?:要|必须|必須|使用|用|采用|採用|写成|寫成|放在)\s*\S"
        ),
        "Always",
        "constraint",
        "zh_all_always",
    ),
    # "所有脚本都不要…", "任何提交都不能…": a ban on every one of a kind.
    (
        _lazy(
            r"^(?:所有|全部|任何|每个|每個|每一个|每一個)[^，,。]{1,15}?都(?:不要|别|別|不能|不许|不許|不准)\s*\S"
        ),
        "Never",
        "constraint",
        "zh_all_never",
    ),
    (
        _lazy(rf"^(?:我|我们|我們)?(?:{POLITE})?(?:不希望|不想要|不想|不喜欢|不喜歡)\s*\S"),
        "Don't",
        "preference",
        "zh_dont_want",
    ),
    # "…，我不想每次都被弹窗打断": not wanting something every time is a standing preference
    # wherever the clause stands.
    (
        _lazy(
            r"(?:^|[，,])\s*(?:我|我们|我們)(?:不希望|不想要|不想|不喜欢|不喜歡)[^，,]{0,6}每次"
        ),
        "Don't",
        "preference",
        "zh_dont_want",
    ),
    # "每次只要中文版本回复", "每次都先跑测试": what to do every time.
    (
        # (not "每次都要等很久", how long it takes: a verb of the user's rule must follow)
        _lazy(
            r"^(?:你)?每次(?:都)?(?:只要|只用|都用|必须|必須|先|记得|記得|(?:都)?要(?:先|用|记得|記得|检查|檢查|跑|运行|執行|执行|更新|确认|確認|写|寫))\S"
        ),
        "Always",
        "constraint",
        "zh_every_time",
    ),
    (
        _lazy(
            rf"^(?:你)?(?:{POLITE})?(?:不要|别|別|请勿|請勿|禁止|不准|不可以|不许|不許)\s*\S"
        ),
        "Don't",
        "constraint",
        "zh_dont",
    ),
    (
        _lazy(
            # ("你总是用英文回复" complains of what it keeps doing; "你总是要先…" asks)
            rf"^(?!你(?:总是|總是)(?!要|都要|必须|必須))(?:你)?(?:{POLITE})?(?:一律|总是|總是|永远要|永遠要|始终|始終|每次都要)\s*"
            # "总是报错", "总是失败": how something keeps going wrong, not a rule
            r"(?!报错|報錯|失败|失敗|出错|出錯|出现|出現|卡|崩|不行|没|沒|不能|不会|不會|会|會|是|等|花|很|好久|"
            r"那么|那麼|这么|這麼)\S"
        ),
        "Always",
        "constraint",
        "zh_always",
    ),
    (
        # "记住：…" / "记住以后…": what is to be remembered is said, and is a standing thing
        # ("记住该信息，我明天…" keeps a note for tomorrow, "记住你" is a role's slogan).
        _lazy(
            r"^(?:请|請)?(?:记住|記住|记得|記得)(?:[:：]\s*\S|[，,]?\s*(?:以后|以後|今后|今後|往后|往後|"
            r"从现在|從現在|永远|永遠|每次|所有|我们|我們|我的|我用|我在用|我是))"
        ),
        "Remember",
        "fact",
        "zh_remember",
    ),
    # "使用大量工具时需要先经过我同意": something needs the user's consent first.
    (
        _lazy(
            r"(?:需要|必须|必須|须|須)(?:先)?(?:经过|經過|征得|徵得|得到)?(?:我|我们|我們)(?:的)?"
            r"(?:同意|审批|審批|确认|確認|批准|授权|授權)|(?:需要|必须|必須)(?:先)?(?:审批|審批|批准|授权|授權)"
        ),
        "Ask first",
        "constraint",
        "zh_needs_approval",
    ),
    # "后端服务使用uv管理": the tool a thing is managed, built or deployed with.
    (
        _lazy(
            rf"(?:使用|改用|用)\s*{TOOL}\s*(?:来|來)?(?:管理|构建|構建|部署|打包|运行|運行|编译|編譯)"
        ),
        "Use",
        "preference",
        "zh_use_to",
    ),
    # Japanese: "必ず…" (always), "…しないでください" (don't), "…を使っています" (we use),
    # "…で作成したい / …を使ってデプロイしたい" (build / deploy it with), as the whole sentence:
    # "Vercelでデプロイする際の手順を教えて" asks for the steps of doing so.
    # a request or a rule ("…してください", "…すること"), not "いつもありがとう" or "必ずしも"
    (
        _lazy(
            # ("いつもの手順で…" is "the usual", a step of this turn)
            r"^(?:常に|いつも(?!の)|必ず|毎回)(?!しも)\S.*(?:ください|下さい|して|すること|こと|ように|しなさい|しろ|"
            r"お願いします|にする|にします)$"
        ),
        "Always",
        "constraint",
        "ja_always",
    ),
    # 決して is "never"; a sentence-initial 絶対に ("絶対に消さないでください") stresses this turn's
    # request, and a rule with a topic ("本番のデータは絶対に…") is lang_topic's
    (_lazy(r"^決して\S.*な(?:い|いで)"), "Never", "constraint", "ja_never"),
    # "main への直接 push は禁止です", "console.log を残すのは厳禁": a ban said as one
    (
        _lazy(r"^\S.{1,40}?(?:は|を)(?:禁止|厳禁)(?:です|とします|します|にします)?$"),
        "Never",
        "constraint",
        "ja_ban",
    ),
    (_lazy(r"\Sないで(?:ください|下さい|ね)?$"), "Don't", "constraint", "ja_dont"),
    (
        # a tool named in code letters, and the use is what the sentence says (it ends there):
        # "…側は X を使っているので合わせたい" is about the code, said on the way to a task;
        # "`…`こんな形のやつ使ってる" shows the shape of a value (a connection string), no tool;
        # after a particle or as a degree ("`vim`はそんなに好きじゃないけど") the tool is in use
        _lazy(
            rf"{TOOL2}(?!\s*(?:こんな|こういう|そんな|そういう))[^。、,]{{0,20}}?(?:を|も|は)?(?:両方)?"
            r"(?:使って(?:い)?ます|使用して(?:い)?ます|使っている|使ってる)(?:よ|ね)?$"
        ),
        "Uses",
        "fact",
        "ja_we_use",
    ),
    # "npx を使わない", "yarnは使わないでください": a tool not to use, said as the whole sentence
    (
        _lazy(
            rf"^{TOOL2}\s*(?:は|を)?\s*(?:使わない|使わないで|使用しない|使用しないで|使いません)"
            r"(?:ください|下さい|こと)?$"
        ),
        "Don't",
        "preference",
        "ja_dont_use",
    ),
    # "テストはVitestを使用したいです", "…したいのでDockerFileを使用したいです": a tool wanted for
    # a named part or purpose (not "Sonnetを使いたい", the model of this session), as the
    # whole sentence and not a member of the code ("storefront.value.isUSA を使いたい")
    (
        _lazy(
            r"(?:は|ので|から|には)[^。]*?(?<![A-Za-z0-9_.])(?![\w-]*\.[\w-]*\.)(?![\w-]*\.[a-z]+[A-Z])"
            rf"{TOOL2}\s*を(?:使用し|使い)たい(?:です|と思います)$"
        ),
        "Use",
        "decision",
        "ja_want_use",
    ),
    # "実行はuv run を使ってモジュールとして実行したいです": how a part of the work is to be done,
    # with a tool (the part first, as the topic; not "この関数は…", a thing of the task)
    (
        _lazy(
            r"^(?!この|その|あの)[^。、]{1,12}?(?:は|には)\s*(?<![A-Za-z0-9_.])(?![\w-]*\.[\w-]*\.)"
            rf"{TOOL2}(?:\s+[a-z][\w-]*)?\s*を(?:使って|使用して|用いて)[^。、]{{0,20}}?したい(?:です|と思います)$"
        ),
        "Use",
        "preference",
        "ja_part_with",
    ),
    # "覚えておいて：…", "…ことを覚えておいてください": what to remember is said with it
    (
        _lazy(
            r"^(?:これを)?覚えて(?:おいて|て)?(?:ください|ね)?[:：、,]\s*\S|"
            # four characters before it are enough to tell (only whether it matches is read);
            # "\S{4,}" scanned the rest of an unbroken run of text at every character
            r"\S{4}(?:ことを|ことは|と|を)覚えて(?:おいて|て)(?:ください|ね)?$"
        ),
        "Remember",
        "fact",
        "ja_remember",
    ),
    (
        _lazy(
            r"\S(?:で|を使って|を使用して)(?:作成|開発|構築|実装|デプロイ|管理)(?:したい|します|する)"
            r"(?:です|と思います|と思っています|ことにします)?$"
        ),
        "Use",
        "decision",
        "ja_build_with",
    ),
    # Korean: "항상 …" (always), "절대 …지 마세요" (never), "…하지 마세요" (don't, needs a durable word).
    (
        _lazy(
            # after a condition of when ("코드 수정 후에는 항상 …", "커밋하기 전에 항상 …")
            r"^(?:\S+\s+){0,3}?\S*(?:후에는|후에|후엔|다음에는|다음에|전에는|전에|때는|때마다|때)\s*,?\s*"
            r"(?:항상|언제나|매번)\s*\S.*(?:세요|주세요|해\s*줘|줘|해|하라|할\s*것|하십시오|합시다)$|"
            r"^(?:항상|언제나|매번)\s*\S.*(?:세요|주세요|해\s*줘|줘|해|하라|할\s*것|하십시오|합시다)$"
        ),
        "Always",
        "constraint",
        "ko_always",
    ),
    # "절대 …지 마세요/하지 말아/않도록/금지", not "절대 그렇지 않아" (not at all so)
    (
        _lazy(r"^절대(?:로)?\s*\S.*(?:지\s*마|말아|않도록|않게|금지)"),
        "Never",
        "constraint",
        "ko_never",
    ),
    (
        _lazy(r"\S\s*지\s*(?:마|마세요|말아요|말아\s*주세요|마십시오)$"),
        "Don't",
        "constraint",
        "ko_dont",
    ),
    (
        _lazy(
            r"^(?:꼭\s*)?기억해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?[:：,]?\s*\S|"
            # the asking last: "…다는 점을 메모리에 기억해", "…을 메모리에 저장해 줘" (a memory named,
            # or "점/사실을 기억해": "이 코드를 기억해" alone points at the task's code)
            r"\S(?:다는|라는|는)\s*(?:점|사실)(?:을|를)\s*(?:꼭\s*)?(?:메모리에\s*|기억에\s*)?(?:꼭\s*)?"
            r"(?:기억|저장)해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?$|"
            r"\S{2}(?:을|를)?\s*(?:꼭\s*)?메모리에\s*(?:꼭\s*)?(?:기억|저장)해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?$"
        ),
        "Remember",
        "fact",
        "ko_remember",
    ),
]
