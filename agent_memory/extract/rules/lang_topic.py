"""A standing rule said about a thing of the work, the thing first and the word of standing time
in the predicate — the commonest way Chinese, Japanese and Korean state a convention:
"提交信息一律用英文", "文档以后统一放在 docs 下", "部署脚本永远不要直接改生产库", "テストは必ず
pytest で書いてください", "ファイルを消す前に必ず確認すること", "커밋 메시지는 항상 영어로 작성해 주세요".
The sentence-initial forms ("始终用中文", "常に…", "항상 …") are read by the rule table
(languages.RULES); here the topic comes before the marker.

The grammar that tells a rule from a report ("页面总是显示空白", "测试每次运行都很慢", "常に差分が
出る"): in Chinese the predicate after the marker opens with a verb of conduct (use, keep, put,
write, run, update, check …) or a negative imperative, and a marker that also reports a habit
("总是", "每次", "一直", "以后") needs a modal of obligation ("要", "必须", "得") before the verb; in
Japanese and Korean the sentence ends as a request or a written rule ("…てください", "…すること",
"…해 주세요"). The topic is a thing, not a person: "我每次都要点 yes" complains, "用户永远要先登录"
specifies the product, "把所有接口统一用 post" is this turn's edit (把 marks an action on a thing)."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# A topic is a short noun phrase: no pronoun alone ("我/你/他 …": the speaker's complaint or the
# sentence forms languages.py reads), no third party of the product, no action on a thing
# ("把/将/帮/给 …": this turn's edit), no clause break. _ZH_TOPIC_CHECKS are the look-aheads every
# topic passes, wherever it starts; _ZH_TOPIC_WORDS is the topic itself.
_ZH_TOPIC_CHECKS = (
    r"(?!(?:我|你|您|他|她|它|咱)(?![的们們]))(?!(?:请|請)?(?:把|将|將|帮|幫|给|給|让|讓|先|再))"
    r"(?![^，,。；;]*?(?:用户|用戶|客户|客戶|玩家|访客|訪客|会员|會員|买家|買家|卖家|賣家|别人|別人|有人|大家|系统|系統|后台|後台|点击|點擊|页面|頁面|按钮|按鈕|弹窗|彈窗|界面|每天|每日|每周|每週|每月|定时|定時))"
    # not a step of a sequence ("并/然后/再 …", "汇总后统一写 PPT": then all at once) or an asking
    r"(?!(?:并|並|然后|然後|再|接着|接著|最后|最後|之后|之後|可以|能不能|能否))"
    r"(?![^，,。；;]*?(?:可以|能否|建议|建議|觉得|覺得|感觉|感覺))"
)
_ZH_TOPIC_WORDS = r"(?:[^，,。；;？?！!\s]{1,16}?)(?<![后後完])"
_ZH_TOPIC_OPEN = "^" + _ZH_TOPIC_CHECKS
_ZH_TOPIC = _ZH_TOPIC_OPEN + _ZH_TOPIC_WORDS
# Markers that state a rule by themselves (all / uniformly / always-without-exception / forever).
_ZH_STRONG = r"(?:(?:都|也)?(?:一律|统一|統一|始终|始終|永远|永遠)(?:都|也)?)"
# Markers that also report how things go ("总是报错", "每次都很慢", "一直在等") or say "after …"
# ("改完以后"): a rule only with "都" and a modal of obligation after them.
_ZH_WEAK = r"(?:(?:也)?(?:总是|總是|每次|每一次|一直)(?:都|也都))"
# "From now on … all": a standing time by itself ("测试以后都用 pytest").
_ZH_FROM_NOW = (
    r"(?:(?:以后|以後|今后|今後|往后|往後|从现在开始|從現在開始|从今以后|從今以後)(?:也)?"
    r"(?:都|也都|一律|统一|統一|始终|始終){1,2})"
)
_ZH_MODAL = r"(?:要|必须|必須|得|需要|应该|應該|应当|應當|请|請|记得|記得)"
# A verb of conduct: how the work is to be done, not what happens ("显示", "报错", "等").
_ZH_DO = (
    r"(?:先\s*)?(?:用|使用|采用|採用|改用|保持|放在|放到|存放在|存到|存在|写成|寫成|写在|寫在|写|寫|跑|运行|運行|"
    r"执行|執行|更新|检查|檢查|提交|遵循|遵守|参考|參考|按照|加上|加|附上|带上|帶上|输出|輸出|回复|回覆|回答|"
    r"同步|备份|備份|确认|確認|测试|測試|标注|標註|注明)"
    # not a report after the verb: "跑不过", "用不了", "用得到", "写了"
    r"(?!不|没|沒|得|了|过|過|完|好了)"
    # nor how long it takes ("测试用例一直都要跑很久")
    r"(?![^，,。；;]*?(?:很久|好久|很慢|太慢|半天|很长时间|很長時間|几分钟|幾分鐘|半小时|半小時))(?:\s*\S|$)"
)
_ZH_DONT = r"(?:不要|别|別|不许|不許|不准|禁止|切勿|不得)"

_ZH_ALWAYS = _lazy(
    rf"{_ZH_TOPIC}(?:(?:{_ZH_STRONG}|{_ZH_FROM_NOW}){_ZH_MODAL}?|{_ZH_WEAK}{_ZH_MODAL}){_ZH_DO}|"
    # the occasion as the topic, said of every time by 都: "写代码的时候都要加注释" ("部署的时候记得备份"
    # without it may be this turn's deploy)
    rf"{_ZH_TOPIC_OPEN}[^，,。；;？?！!\s]{{1,16}}?(?:的时候|的時候|时|時)(?:也)?(?:都|一律|始终|始終){_ZH_MODAL}{_ZH_DO}|"
    # the occasion as the topic: "每次改完代码都要跑测试" (every time …, all must …)
    rf"^(?:每次|每一次|每当|每當)(?=[^，,。；;？?！!\s]{{1,16}}?都){_ZH_TOPIC_CHECKS}{_ZH_TOPIC_WORDS}(?:都|也都){_ZH_MODAL}{_ZH_DO}"
)
_ZH_NEVER = _lazy(
    rf"{_ZH_TOPIC}(?:{_ZH_STRONG}|{_ZH_FROM_NOW}|{_ZH_WEAK})(?:{_ZH_DONT}|(?<=[远遠律])(?:不能|不可以))(?:再)?\s*\S"
)

# Japanese: a marker of standing time after the first word, and the sentence ends as a request or
# a written rule. "いつもの手順で" is "the usual", "必ずしも" is "not necessarily"; "この/その …"
# points at this turn's thing (task_bound reads it). "毎回変化する", "いつも違う": how the thing
# behaves (changes / differs each time), not how the work is to be done.
_JA_MARK = (
    r"(?:常に|必ず|毎回|いつも(?!の)|今後は?|今後も|これからは?|これからも|一律|絶対に?)"
    r"(?!しも|変化|変わ|違|異な)"
)
_JA_REQUEST = (
    r"(?:てください|て下さい|でください|で下さい|てほしい(?:です)?|ようにしてください|ようにして|ようお願いします|"
    r"ようにお願いします|でお願いします|をお願いします|にしてください|にすること|すること|こと)$"
)
_JA_DONT = r"(?:ないでください|ないで下さい|ないでほしい(?:です)?|ないこと|ないように(?:してください|して)?|ては(?:いけません|だめです|ダメです)|禁止(?:です)?)$"
# The topic is marked (は/も, "…には", "…ときは") or is the occasion "…前に" (before …), as Korean's
# 은/는/도 below: with no topic, 必ず and 絶対 only stress this turn's request ("迷うことがあれば必ず
# 聞いて", "その下に絶対来るようにして"), a condition or a placement of the thing at hand.
_JA_TOPIC = (
    # (nor a time of this work: "今日は", "明日までには", "次は")
    r"^(?!(?:この|その|あの|これ|それ|あれ|今回|さっき|先ほど|今日|明日|次は|次回|今週|来週|まず|最後|後で))"
    r"(?![^。]*?(?:ユーザー|ユーザ|お客|顧客|利用者|会員|ボタン|画面|ページ|ポップアップ|モーダル))"
    r"[^。？?!！]{0,30}?(?:は|も|前に)\s*"
)
# what follows the marker is the rule itself, not a reason or a condition for this turn's request
# ("エラーがいつも出るので直してください")
# (nor what the product does on its own: "ログは必ず出力されるようにして" asks for a behaviour)
_JA_RULE = r"(?:(?!ので|けど|けれど|のに|たら|なら|されるよう|られるよう)[^。？?]){1,50}?"
_JA_ALWAYS = _lazy(rf"{_JA_TOPIC}{_JA_MARK}{_JA_RULE}{_JA_REQUEST}")
_JA_NEVER = _lazy(rf"{_JA_TOPIC}{_JA_MARK}{_JA_RULE}{_JA_DONT}")

# Korean: the topic marked by 은/는/도, a marker of standing time, and a request or a rule.
_KO_MARK = r"(?:항상|언제나|매번|늘|앞으로(?:는)?|절대(?:로)?)"
_KO_TOPIC = (
    r"^(?!(?:이번|방금|지금|오늘)|(?:이|그|저)\s)(?![^.?!？]*?(?:사용자|유저|고객|버튼|화면|페이지))"
    r"[^.?!？]{1,30}?(?:은|는|도|에서는|할\s*때는?|하기\s*전에)\s*"
)
_KO_ALWAYS = _lazy(
    rf"{_KO_TOPIC}{_KO_MARK}\s*[^.?!？]{{1,50}}?(?:해\s*주세요|해\s*줘|주세요|하세요|해라|할\s*것|합시다|해요)$"
)
_KO_NEVER = _lazy(
    rf"{_KO_TOPIC}{_KO_MARK}\s*[^.?!？]{{1,50}}?(?:지\s*마(?:세요|요)?|지\s*말아\s*(?:주세요|줘)?|말\s*것|금지)$"
)

# A convention of the code, said of the kind of name or layout it governs: "缩进用两个空格",
# "变量名统一用驼峰", "ファイル名はケバブケースにすること", "변수명은 카멜 케이스로 해 주세요". The topic is a
# closed class (indentation, the names of a kind of thing), and the value is a style or a count of
# spaces — not a name of this turn ("文件名用 report_v2": a file being made).
_ZH_CODE_PART = (
    r"(?:代码|代碼|项目|項目)?(?:的)?(?:缩进|縮進|命名|命名规范|命名規範|变量名|變數名|变量命名|函数名|函數名|文件名|檔案名|"
    r"分支名|类名|類名|组件名|組件名|常量名|接口名|表名|字段名)"
)
_ZH_STYLE = (
    r"(?:(?:大|小)?驼峰|(?:大|小)?駝峰|下划线|下劃線|蛇形|短横线|短橫線|帕斯卡|(?:[A-Za-z]+[-_ ]?case)|"
    r"(?:两|兩|二|四|2|4)\s*(?:个|個)?\s*(?:空格|空白|spaces?)|tab|制表符)"
)
_ZH_CONVENTION = _lazy(
    rf"^{_ZH_CODE_PART}(?:都|统一|統一|一律|要|必须|必須|请|請){{0,2}}(?:用|使用|采用|採用|遵循|遵守|按照|为|為|是)"
    rf"\s*{_ZH_STYLE}(?:命名|格式|风格|風格)?$",
    re.I,
)
_JA_STYLE = (
    r"(?:キャメルケース|スネークケース|ケバブケース|パスカルケース|[A-Za-z]+[-_ ]?case|(?:2|4|２|４)\s*スペース|"
    r"スペース\s*(?:2|4|２|４)|タブ)"
)
_JA_CONVENTION = _lazy(
    r"^(?:コードの)?(?:インデント|変数名|関数名|ファイル名|ブランチ名|クラス名|コンポーネント名|定数名|命名規則|命名)(?:は|も)\s*"
    rf"(?:常に|必ず|すべて|全て)?\s*{_JA_STYLE}\s*(?:で|に)?\s*(?:統一|統一して(?:ください)?|してください|して|すること|"
    r"お願いします|です|でお願いします)?$",
    re.I,
)
_KO_CONVENTION = _lazy(
    r"^(?:들여쓰기|변수명|변수\s*이름|함수명|파일명|파일\s*이름|브랜치명|클래스명)(?:는|은)\s*(?:항상\s*)?"
    r"(?:카멜\s*케이스|스네이크\s*케이스|케밥\s*케이스|파스칼\s*케이스|[A-Za-z]+[-_ ]?case|(?:2|4)\s*칸|탭)"
    r"\s*(?:으로|로)?\s*(?:해\s*(?:줘|주세요)|작성해\s*(?:줘|주세요)|통일해\s*(?:줘|주세요)|하세요|합니다|해요)?$",
    re.I,
)

# The user's own principle, said as one: "我的原则是前端尽量交给 X，…", "我们的规范就是：…", "うちの
# ルールは…", "우리 팀의 원칙은 …". Whose it is must be said (my / our / the project's): "你给的规则是…"
# reports the assistant's, "规则是非常多的" talks about rules. What follows is the principle itself.
_PRINCIPLE = _lazy(
    r"^(?:我的|我们的|我們的|咱们的|咱們的|项目的|項目的|团队的|團隊的)(?:原则|原則|规则|規則|规范|規範|约定|約定|惯例|慣例)"
    r"(?:就|一直|始终|始終|一向)?(?:是|为|為)(?!不是|什么|什麼|否)[，,:：]?\s*\S.{3,}|"
    r"^(?:私の|僕の|うちの|チームの|プロジェクトの)(?:方針|ルール|原則|規約)(?:は|として)[、,:：]?\s*\S.{3,}|"
    r"^(?:제|내|우리|우리\s*팀의?|프로젝트의?)\s*(?:원칙|규칙|방침|규약)(?:은|는)\s*\S.{3,}"
)

# What the user likes, said of themselves: "我更喜欢函数式写法", "比起 Redux 我更喜欢 Zustand", "私は
# シンプルなコードが好きです", "저는 간결한 코드를 선호합니다"; and how answers or code should read
# ("回答尽量简洁", "回答は簡潔にしてください"). Not a pick of this turn ("我更喜欢第二种", "我喜欢这个",
# "方案A"), not praise of the answer ("我喜欢你的回答"), not "倾向于" (a pick every time in the pools).
_NOT_PICKED = r"(?!你|您|这|這|那|刚|剛|上面|第|方案|选项|選項|它|他|她|[A-Za-z0-9]{1}(?:$|[，,。]))"
_LIKES = _lazy(
    r"^(?:我|我们|我們)(?:一般|通常|平时|平時|还是|還是|比较|比較|更|最)*(?:喜欢|喜歡|偏好|偏爱|偏愛)"
    rf"(?:用|使用|写|寫)?\s*{_NOT_PICKED}\S{{2,}}|"
    rf"^比起\s*\S{{1,20}}?\s*(?:我|我们|我們)?(?:更|还是|還是)(?:喜欢|喜歡|偏好)(?:用|使用)?\s*{_NOT_PICKED}\S{{2,}}|"
    r"^(?:你的)?(?:回答|回复|回覆|解释|解釋|说明|說明|代码|代碼|注释|註釋)(?:都)?(?:尽量|盡量|尽可能|盡可能|最好|要)"
    r"(?:保持)?(?:简洁|簡潔|简短|簡短|简单|簡單|详细|詳細|精简|精簡|清晰|易懂)|"
    r"^(?:私は|僕は|自分は)(?!この|その|あの)[^。？?]{2,20}?(?:が|の方が)(?:好き|好み)(?:です)?$|"
    r"^(?!この|その|あの|それ|これ)[^。？?、]{2,20}?の方が(?:好き|好み)(?:です)?$|"
    r"^(?:回答|返答|説明|出力|コード|コメント)は(?:常に|いつも)?(?:簡潔|短く|手短|詳しく|丁寧|シンプル)(?:に)?"
    r"(?:して(?:ください)?|お願いします)?$|"
    r"^(?:저는|전|나는|난)\s*(?!이|그|저)[^.?!？]{2,20}?(?:을|를)\s*(?:선호합니다|선호해요|선호해|좋아합니다|좋아해요)$"
)
_NO_LONG = _lazy(
    r"^(?:長い|詳しい|余計な|冗長な)(?:説明|前置き|解説|まとめ)は(?:不要|いらない|要らない)(?:です)?$"
)

TOPIC_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    (_LIKES, "Prefers", "preference", "likes"),
    (_NO_LONG, "Don't", "preference", "likes"),
    (_PRINCIPLE, "Principle", "preference", "principle"),
    (_ZH_CONVENTION, "Convention", "preference", "code_convention"),
    (_JA_CONVENTION, "Convention", "preference", "code_convention"),
    (_KO_CONVENTION, "Convention", "preference", "code_convention"),
    (_ZH_NEVER, "Never", "constraint", "zh_topic_never"),
    (_ZH_ALWAYS, "Always", "constraint", "zh_topic_always"),
    (_JA_NEVER, "Never", "constraint", "ja_topic_never"),
    (_JA_ALWAYS, "Always", "constraint", "ja_topic_always"),
    (_KO_NEVER, "Never", "constraint", "ko_topic_never"),
    (_KO_ALWAYS, "Always", "constraint", "ko_topic_always"),
]
