"""Who the user is, said of themselves in another language: their trade ("私は Flutter エンジニア
です", "sou desenvolvedor backend", "я фронтенд-разработчик"), or that they are new to
programming ("我是个编程小白", "プログラミングは全くわからない", "no sé programar"). A durable fact
about the user that shapes every answer. Each entry matches one clause (the caller cuts the
sentence at its commas); the claim is that clause in the user's words behind "User:" — or
"User (not):" when it is said with a negation, so the polarity reads in English too.
`about_the_user` is that caller: the first clause an entry reads, unless the task at hand, a
hedge, a question or a sigh binds it."""

from __future__ import annotations

import re

from agent_memory.extract.filters import PATH_WORD
from agent_memory.extract.rules.lang_negation import negated
from agent_memory.extract.rules.lang_scope import HEAD, HEDGE, NOW, question, task_bound
from agent_memory.extract.rules.lang_words import Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# A Latin-lettered qualifier before the trade ("Flutter エンジニア", "iOS 개발자").
_LATIN = r"(?:[A-Za-z][A-Za-z0-9.+#/-]*\s*)?"

_ZH_TRADE = (
    r"(?:前端|后端|後端|全栈|全端|独立|獨立|软件|軟體|软体|移动端|嵌入式|游戏|遊戲)?"
    r"(?:开发者|開發者|开发人员|開發人員|(?<=前端|后端|後端|全栈|全端)(?:开发|開發)(?![了过過的])|"
    r"工程师|工程師|程序员|程序員|码农|碼農|设计师|設計師|"
    r"产品经理|產品經理|数据分析师|數據分析師|运维|運維|架构师|架構師|学生|學生|老师|老師|研究员|研究員|"
    # a trade named by its suffix: "投资经理", "财务顾问", "跨境电商运营"
    r"[\u4e00-\u9fff]{1,6}?(?:经理|經理|顾问|顧問|律师|律師|医生|醫生|会计|會計|教师|教師|站长|站長|运营|運營|"
    r"创业者|創業者|主管|总监|總監|分析师|分析師|工程师|工程師|设计师|設計師))"
)
_ZH_NEW = (
    r"(?:完完全全的|完全的|纯|純|纯粹的|彻底的|徹底的)?(?:编程|編程|技术|技術|代码|代碼|开发|開發|电脑|電腦)?"
    r"(?:小白|新手|初学者|初學者|菜鸟|菜鳥|外行|门外汉|門外漢)"
)
_JA_TRADE = (
    r"(?:エンジニア|開発者|プログラマー?|デザイナー|初心者|学生|素人|ディレクター|マネージャー|"
    r"フロントエンド|バックエンド|インフラ)"
)
_KO_TRADE = r"(?:개발자|엔지니어|디자이너|학생|초보자?|기획자|프로그래머|입문자)"
_PT_TRADE = (
    r"(?:desenvolvedor(?:a)?|programador(?:a)?|dev|engenheir[oa](?:\s+de\s+software)?|designer|"
    r"estudante|iniciante|leig[oa]|analista(?:\s+de\s+dados)?|professor(?:a)?)"
)
_ES_TRADE = (
    r"(?:desarrollador(?:a)?|programador(?:a)?|dev|ingenier[oa](?:\s+de\s+software)?|"
    r"diseñador(?:a)?|estudiante|principiante|novat[oa]|analista(?:\s+de\s+datos)?|profesor(?:a)?)"
)
_FR_TRADE = (
    r"(?:développeur|développeuse|dev|ingénieur(?:e)?|designer|étudiant(?:e)?|débutant(?:e)?|"
    r"programmeur|programmeuse|analyste)"
)
_DE_TRADE = (
    r"(?:(?:[a-zäöü]+-){0,2}entwickler(?:in)?|softwareentwickler(?:in)?|programmierer(?:in)?|anfänger(?:in)?|"
    r"student(?:in)?|designer(?:in)?|ingenieur(?:in)?|laie)"
)
_IT_TRADE = (
    r"(?:sviluppatore|sviluppatrice|programmatore|programmatrice|principiante|ingegnere|designer|"
    r"studente|studentessa|analista)"
)
_RU_TRADE = (
    r"(?:программист\w*|разработчи\w*|новичок|новичк\w*|фронтенд\S*|бэкенд\S*|фулстек\S*|"
    r"дизайнер\w*|студент\w*|инженер\w*|аналитик\w*|тестировщи\w*|джун\w*|сеньор\w*|"
    r"не\s+программист\w*|не\s+разработчи\w*)"
)

# A person's name in Latin letters: capitalised words ("Ana Souza", "Dallenger").
# A path that may hold blanks between its parts ("~/Library/Application Support/Code"): each part
# after a blank holds a slash of its own, so a sentence going on after the path is not taken.
_PATH_SPACED = PATH_WORD + r"(?:\s[\w.~@-]{0,64}[/\\][\w.~@/\\-]*){0,8}"
_NAME = r"(?-i:[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+){0,2})(?![\w-])"

# A tool's name in Latin letters inside CJK text ("codex cli", "Oh My Claude Code", "xvfb").
# Each word is at most 64 characters: no tool is named longer, and an unbounded word made every
# start inside a long dotted or dashed word scan to its end (quadratic; notes/28-hang.md).
_LATIN_NAME = (
    r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9.+#_/-]{0,63}(?:\s+[A-Za-z][A-Za-z0-9.+#_/-]{0,63}){0,3}"
)
# A name inside Latin-script text, written as one: a capital, a digit or a dot in it. Bounded
# like _LATIN_NAME: it has no word-start guard, so each start in a long word scanned to its end.
_NAMED = r"(?-i:(?:[A-Z][A-Za-z0-9.+#_-]{0,63}|[a-z]{1,63}[0-9.+#-][A-Za-z0-9.+#_-]{0,63}))"
# What follows "I installed": a name, not an article and a common noun.
_AFTER_VERB = (
    r"(?!(?:el|la|los|las|o|a|os|as|le|les|un|une|des|die|der|das|den|il|lo|gli|uma|um|una|todo|"
    r"tudo|tout|alles|все|всё|"
    # a pointer or a some, not a name ("instalei este", "instalei algumas" are things of the talk)
    r"este|esta|estes|estas|esse|essa|esses|essas|isso|isto|aquele|aquela|algum|alguma|alguns|algumas|"
    r"estos|ese|esa|esos|esas|algunos|algunas|ce|cet|cette|ces|quelques|questo|questa|questi|queste|"
    r"alcuni|alcune|dieses|diese|dieser|einige|einen|eine|ein)\b)[A-Za-z][A-Za-z0-9.+#_/-]*"
)

# 安装 / 装 (install), not 封装 (wrap), 包装 (pack), 假装 (pretend), 组装 (assemble)
_ZH_INSTALL = r"(?:安装|安裝|(?<![封包假组組改伪偽武服盒西])[装裝])"

# Tools of a personal setup (terminal, shell, editor, window manager, prompt, notes).
_SETUP_TOOL = (
    r"(?:kitty|alacritty|wezterm|iterm2?|ghostty|warp|konsole|zsh|fish|bash|nushell|tmux|zellij|"
    r"nvim|neovim|vim|emacs|vscode|vs\s*code|cursor|zed|helix|lazyvim|astronvim|nvchad|starship|"
    r"oh-my-zsh|hyprland|i3|sway|waybar|yabai|aerospace|raycast|obsidian|dotfiles|zshrc|bashrc|"
    r"arch|nixos|fedora|ubuntu|debian|macbook|thinkpad)(?![A-Za-z0-9_-])"
)

USER_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    (
        _lazy(
            # zh: "我是个编程小白", "我是一名前端工程师", "我不懂编程"
            rf"(?:^|(?<=\s))(?:其实|其實|另外|因为|因為)?\s*我(?:只)?是(?:一个|一個|一名|一位|个|個)?\s*{_LATIN}"
            rf"(?:{_ZH_NEW}|{_ZH_TRADE})|"
            r"^(?:其实|其實)?\s*我(?:完全|根本|真的)?(?:不懂|不会|不會|看不懂)(?:编程|編程|写代码|寫代碼|代码|代碼|技术|技術)|"
            # ja: "私は Flutter エンジニアです", "プログラミングは全くわからない"
            rf"^(?:私|僕|俺|自分)は\s*{_LATIN}(?:の)?\s*{_JA_TRADE}|"
            r"^(?:プログラミング|コーディング|コード|技術(?:面|的なこと)?)(?:は|が|の)?\s*"
            r"(?:まったく|全く|全然|ほとんど)?(?:わからない|分からない|わかりません|分かりません|素人|初心者)|"
            # ko: "저는 백엔드 개발자예요", "코딩은 잘 몰라요"
            rf"^(?:저는|전|나는|난)\s*{_LATIN}(?:\S+\s+)?(?:\S*){_KO_TRADE}|"
            r"^(?:코딩|프로그래밍|개발)(?:은|는|을|를)?\s*(?:잘\s*|전혀\s*)?(?:모르|몰라|못\s*해|초보)|"
            # pt / es / fr / de / it / ru
            rf"^(?:eu\s+)?(?:sou|não\s+sou)\s+(?:um\s+|uma\s+)?{_PT_TRADE}\b|"
            r"^(?:eu\s+)?não\s+sei\s+programar\b|"
            rf"^(?:yo\s+)?(?:soy|no\s+soy)\s+(?:un\s+|una\s+)?{_ES_TRADE}\b|"
            r"^(?:yo\s+)?no\s+sé\s+programar\b|"
            rf"^je\s+(?:suis|ne\s+suis\s+pas)\s+(?:un\s+|une\s+)?{_FR_TRADE}\b|"
            r"^je\s+ne\s+sais\s+pas\s+(?:coder|programmer)\b|"
            rf"^ich\s+bin\s+(?:kein(?:e)?\s+|ein(?:e)?\s+)?{_DE_TRADE}\b|"
            rf"^(?:io\s+)?(?:sono|non\s+sono)\s+(?:un\s+|una\s+|uno\s+)?{_IT_TRADE}\b|"
            r"^(?:io\s+)?non\s+so\s+programmare\b|"
            rf"^я\s+{_RU_TRADE}(?!\w)|"
            r"^я\s+не\s+(?:умею\s+программировать|разбираюсь\s+в\s+(?:программировании|коде))",
            re.I,
        ),
        "User",
        "fact",
        "user_is",
    ),
    # The user's own name: "меня зовут Ирина", "meu nome é Ana Souza", "私の名前は Sato です",
    # "내 Lastname 인 Dallenger", "我的名字是 Lin Wei". A name in capitals (or, after a word that
    # can only mean "name", in the script of the sentence); not "我叫你…" (I told you to…).
    (
        _lazy(
            rf"(?:^|\s)(?:меня\s+зовут|моя\s+фамилия|мо[её]\s+имя)\s+(?:{_NAME}|[А-ЯЁ][а-яё-]+)|"
            rf"\b(?:(?:meu|mi)\s+(?:nome|nombre|sobrenome|apellido)\s+(?:é|es)|me\s+(?:chamo|llamo)|"
            rf"je\s+m'appelle|mon\s+nom\s+est|mi\s+chiamo|il\s+mio\s+nome\s+è|ich\s+heiße|"
            rf"mein\s+name\s+ist)\s+{_NAME}|"
            rf"(?:私|僕|俺)の(?:名前|苗字|名字)は\s*(?:{_NAME}|[\u4e00-\u9fff\u30a0-\u30ff]{{2,6}})|"
            rf"(?:^|\s)(?:내|제)\s*(?:이름|성|풀네임|(?i:last\s*name|first\s*name|lastname|firstname))\s*"
            rf"(?:은|는|이|인)\s*{_NAME}|"
            rf"我(?:的)?(?:名字|全名|英文名|英文名字|中文名|姓名)(?:是|叫)\s*(?:{_NAME}|[\u4e00-\u9fff]{{2,4}}(?=$|[，,。\s]))|"
            rf"我叫\s*{_NAME}",
        ),
        "Name",
        "fact",
        "user_name",
    ),
    # zh: "我是windows系统", "我是mac用户": the user's machine, said as who they are
    (
        _lazy(
            r"^(?:其实|其實|另外|因为|因為)?\s*我(?:是|用的是)\s*(?:windows(?:\s*1[01])?|win1[01]|macos|mac|"
            r"macbook|linux|ubuntu|debian|fedora|arch|wsl2?)\s*(?:系统|系統|电脑|電腦|用户|用戶|笔记本|筆記本)",
            re.I,
        ),
        "Environment",
        "fact",
        "user_env",
    ),
    # A tool the user has installed: "codex cli는 이미 설치되어있음", "我安装了pencil", "xvfb已经安装了",
    # "OrbStack はインストール済みです", "j'ai installé WezTerm". In Latin script a name after the
    # verb takes no article ("instalé las dependencias" is the task's), and a name before
    # "is installed" is written as one (capital, digit or dot: "Node 20 ya está instalado").
    (
        _lazy(
            rf"{_ZH_INSTALL}了\s*{_LATIN_NAME}|"
            # "我本地装的是 Python 3.11": what the user has installed, said as which one
            rf"^(?:我|我们|我們)(?:本地|电脑上|電腦上|这边|這邊)?{_ZH_INSTALL}的是\s*{_LATIN_NAME}(?:\s*\d[\w.]*)?|"
            rf"{_LATIN_NAME}\s*(?:也|都)?(?:已经|已經)?{_ZH_INSTALL}(?:好)?了"
            r"\s*$|"
            # each run of blanks read by one \s* (two in a row split a run every way: quadratic)
            rf"{_LATIN_NAME}\s*(?:(?:は|も|を)\s*)?(?:インストール済み|インストールして(?:い|あ)ります|"
            r"インストールしました|インストールしてある|導入済み|入れてあります)|"
            rf"{_LATIN_NAME}\s*(?:플러그인\s*)?(?:(?:은|는|이|가|을|를)\s*)?(?:이미\s*|다\s*)?"
            r"(?:설치했|설치되어\s*있|설치돼\s*있|깔았|깔려\s*있)|"
            rf"(?<!\w)(?:у\s+(?:меня|нас)\s+(?:уже\s+)?(?:установлен\w*|стоит|стоят)|"
            rf"я\s+(?:уже\s+)?установил\w*)\s+{_AFTER_VERB}|"
            rf"\b(?:instalei|instalé|j'ai\s+(?:déjà\s+)?installé|ho\s+(?:già\s+)?installato)\s+"
            rf"{_AFTER_VERB}|"
            rf"\b(?:(?:já\s+)?tenho\s+(?:o\s+|a\s+)?|(?:ya\s+)?tengo\s+){_NAMED}(?:\s+[\w.]+)?\s+"
            r"instalad[oa]\b|"
            rf"\bich\s+habe\s+{_NAMED}(?:\s+\S+){{0,2}}\s+(?:schon\s+|bereits\s+)?installiert\b|"
            rf"{_NAMED}\s+(?:(?:já\s+|ya\s+)?está|est|ist|è)\s+(?:déjà\s+|già\s+|schon\s+|"
            r"bereits\s+)?(?:instalad[oa]|installée?|installiert|installat[oa])\b",
            re.I,
        ),
        "Installed",
        "fact",
        "installed",
    ),
    # zh: a tool or account the user has ("我本地有Mullvad Browser", "我有git账号"); not a key, an
    # error or a question about the task ("我有个bug", "我有API key吗").
    (
        _lazy(
            r"我(?:这边|這邊|这里|這裡|本地|电脑上|電腦上|手上|手里|手裡)?(?:也)?(?:有|装有|裝有)\s*"
            r"(?!(?:api|key|token|bug|error|issue|idea|question|problem|pr)\b)"
            rf"{_LATIN_NAME}",
            re.I,
        ),
        "Has",
        "fact",
        "has",
    ),
    # Where the project's repository is: "원격 저장소 URL은 <url>이야", "这是仓库远程地址：<url>",
    # "リポジトリは <url> です", "o repositório é <url>" (a URL is masked as a code span).
    (
        _lazy(
            r"(?:仓库|倉庫|repo|リポジトリ|저장소|레포|репозитори\w*|репо|repositório|repositorio|dépôt|"
            r"repository)[^，,。]{0,12}?(?:地址|URL|链接|連結|は|은|는|:|：|是|é|es|est|ist|è|—|-)\s*"
            r"(?:\ue000\d+\ue001|https?://\S+|git@\S+)",
            re.I,
        ),
        "Repository",
        "fact",
        "repository",
    ),
    # "configurar meu kitty abrindo com zsh e starship", "mi neovim con LazyVim", "мой tmux с
    # oh-my-tmux": the user's setup, a tool named with a possessive and with what it goes with
    # ("no meu tmux <url>" alone is the target of this turn's edit).
    (
        _lazy(
            r"(?:(?<!\w)(?:meu|minha|meus|minhas|mi|mis|mon|ma|mes|mein|meine|meinem|meinen|"
            r"il\s+mio|la\s+mia|i\s+miei|mio|mia|мой|моя|мои|моём|моем|моего)\s+|我的\s*|私の\s*|내\s+)"
            rf"{_SETUP_TOOL}[^,，。;；]{{0,24}}?(?:(?<!\w)(?:com|con|avec|mit|с|with)\s+"
            r"(?:o\s+|a\s+|el\s+|la\s+|le\s+|den\s+|die\s+|il\s+)?[A-Za-z]|"
            # after a bare "and" another tool of the setup ("meu zshrc e implemente …" goes on to a task)
            rf"(?:(?<!\w)(?:и|e|y|et|und|and)\s+|[和跟与與]\s*){_SETUP_TOOL})",
            re.I,
        ),
        "Uses",
        "fact",
        "my_tool",
    ),
    # The project's stack, part by part: "后端用的是 FastAPI", "フロントエンドは Next.js で",
    # "백엔드는 Spring", "бэкенд на Go", "o backend é em Node", "el frontend usa Vue".
    (
        _lazy(
            # (whose: ours, the project's; the parts every project's way of working has — CI, the
            # test framework, the deploy target, the package manager … — named by a tool)
            r"^(?:我们|我們|我|本)?(?:的)?(?:项目|項目)?(?:的)?(?:前端|后端|後端|服务端|服務端|客户端|客戶端|数据库|數據庫|"
            r"框架|部署|托管|服务器|伺服器|CI|CI/CD|测试框架|測試框架|部署平台|构建工具|構建工具|包管理器|包管理|"
            r"状态管理|狀態管理|组件库|組件庫|UI库|UI庫|ORM|缓存|緩存|消息队列|认证|認證)(?:都|现在|現在)?"
            r"(?:用的是|使用的是|使用|用|是|采用|採用|基于|基於|部署在|放在)\s*"
            rf"{_LATIN_NAME}|"
            # "我们的服务部署在 AWS 上", "网站托管在 Vercel": where it runs
            r"^(?:我们|我們|我|本)?(?:的)?(?:服务|服務|应用|應用|网站|網站|项目|項目|博客)(?:都|现在|現在|目前)?"
            rf"(?:部署在|部署到|托管在|跑在|运行在|運行在)\s*{_LATIN_NAME}|"
            r"^(?:私の|うちの|(?:この|本)?プロジェクトの)?(?:フロントエンド|フロント|バックエンド|バック|DB|データベース|"
            r"サーバー|インフラ|ホスティング|CI|CI/CD|テストフレームワーク|デプロイ先|本番環境|本番|ステージング|"
            r"パッケージマネージャー|パッケージ管理|ビルドツール|認証|ORM|状態管理|リンター|フォーマッター)(?:は|に)\s*"
            rf"{_LATIN_NAME}|"
            rf"^(?:우리\s*|제\s*|내\s*)?(?:프론트엔드|프론트|백엔드|DB|데이터베이스|서버|배포|CI|테스트\s*프레임워크|"
            rf"패키지\s*매니저)(?:는|은)\s*{_LATIN_NAME}|"
            r"^(?:у\s+нас\s+)?(?:бэк(?:енд)?|фронт(?:енд)?|сервер|бд|база(?:\s+данных)?|бот|api|апи|проект|"
            r"приложение|сайт|мы)\s+"
            r"(?:у\s+нас\s+)?(?:написан\w*\s+|сделан\w*\s+|работает\s+|крутится\s+)?на\s+"
            rf"{_LATIN_NAME}|"
            r"^(?:o\s+|el\s+|le\s+|das\s+|il\s+)?(?:backend|frontend|front-end|back-end|banco\s+de\s+dados|"
            r"base\s+de\s+datos)\s+(?:é|está|roda|usa|es|usa|corre|est|utilise|ist|läuft|nutzt|è|usa)\s+"
            rf"(?:em\s+|no\s+|na\s+|com\s+|en\s+|con\s+|sous\s+|in\s+|mit\s+|auf\s+)?{_NAMED}",
            re.I,
        ),
        "Stack",
        "fact",
        "stack",
    ),
    # What the project is built with, said of the project: "这个项目用的是 Next.js", "项目使用 Vite
    # 构建", "이 프로젝트는 pnpm을 사용해", "Esse projeto usa Next.js", "Ce projet utilise Django",
    # "Dieses Projekt nutzt Poetry", "Этот проект использует Django". Said with "uses" as a state,
    # not "用 React 重写这个项目" (a task done with it): Chinese plain 使用/用/采用 only with the tool
    # ending its clause or said as a role ("作为数据库"); in Latin script a name written as one.
    (
        _lazy(
            r"^(?:这个|這個|本|我们的|我們的|我的|我们|我們)?(?:项目|項目|仓库|倉庫|工程)(?:里|裡|中)?(?:都|目前|主要)?"
            rf"(?:(?:用的是|使用的是|采用的是|採用的是|基于|基於)\s*{_LATIN_NAME}|"
            rf"(?:使用|采用|採用|用)\s*{_LATIN_NAME}\s*(?:$|(?:作为|作為|当|當|来|來)?(?:数据库|數據庫|框架|"
            r"包管理|构建|構建|打包|测试|測試|部署|管理依赖|管理依賴|ORM|后端|後端|前端)))|"
            # "这个项目是用 React 写的", "本项目基于 FastAPI 开发": what it is written with
            rf"^(?:这个|這個|本|我们的|我們的|我的)?(?:项目|項目|仓库|倉庫|工程)(?:是)?(?:用|使用|基于|基於)\s*"
            rf"{_LATIN_NAME}\s*(?:写|寫|开发|開發|做|搭建|构建|構建|实现|實現)(?:的)?$|"
            # "このプロジェクトは Next.js で作られています"
            rf"^(?:この|本|私の|うちの)?(?:プロジェクト|リポジトリ|アプリ)(?:は|では)\s*{_LATIN_NAME}\s*"
            r"(?:で|を使って|を使用して)(?:作られて|書かれて|開発されて|構築されて|実装されて|作って|書いて|開発して)"
            r"(?:います|いる|おり|ます)|"
            # "このプロジェクトでは pnpm を使います": the tool the project uses, as a standing state
            rf"^(?:この|本|私の|うちの)?(?:プロジェクト|リポジトリ)(?:では|は)\s*{_LATIN_NAME}\s*(?:を|も)\s*"
            r"(?:使います|使用します|使っています|使用しています|採用しています|採用します)$|"
            rf"^(?:이|우리|제|내)?\s*프로젝트(?:는|에서는|에선|에서)\s*{_LATIN_NAME}\s*(?:을|를)?\s*"
            r"(?:사용(?:해|하고|합니다|해요|중)|써|쓰고)|"
            # "이 프로젝트는 Next.js로 만들어졌어요": what it is built with
            rf"^(?:이|우리|제|내)?\s*프로젝트(?:는|은)\s*{_LATIN_NAME}\s*(?:으로|로)\s*"
            r"(?:만들어졌|만들었|개발했|개발되었|개발됐|작성되었|작성됐|작성했)|"
            r"^(?:esse|este|o|nosso|meu)\s+(?:projeto|repositório|repo|app|aplicativo)\s+"
            r"(?:usa|utiliza|roda\s+(?:em|com)|é\s+feito\s+(?:em|com)|é\s+escrito\s+em)\s+"
            rf"(?:o\s+|a\s+)?{_NAMED}|"
            r"^(?:este|el|nuestro|mi)\s+(?:proyecto|repositorio|repo|app)\s+"
            rf"(?:usa|utiliza|está\s+hecho\s+(?:en|con)|está\s+escrito\s+en)\s+(?:el\s+|la\s+)?{_NAMED}|"
            r"^(?:ce|le|notre|mon)\s+(?:projet|dépôt|repo|app)\s+"
            rf"(?:utilise|tourne\s+(?:sous|avec|sur)|est\s+(?:écrit|fait)\s+(?:en|avec))\s+(?:le\s+|la\s+|l')?{_NAMED}|"
            r"^(?:questo|il|il\s+nostro|il\s+mio)\s+(?:progetto|repository|repo)\s+"
            rf"(?:usa|utilizza|è\s+(?:scritto|fatto)\s+(?:in|con))\s+(?:il\s+|la\s+|lo\s+)?{_NAMED}|"
            r"^(?:dieses|das|unser|mein)\s+(?:projekt|repo|repository)\s+"
            rf"(?:nutzt|verwendet|benutzt|basiert\s+auf|läuft\s+(?:auf|mit)|ist\s+in)\s+{_NAMED}|"
            r"^(?:этот\s+|наш\s+|мой\s+)?(?:проект|репозиторий)\s+(?:использует|написан\s+на|построен\s+на)\s+"
            rf"{_LATIN_NAME}|"
            rf"^в\s+(?:этом|нашем|моём|моем)\s+проекте\s+(?:мы\s+)?(?:используем|используется)\s+{_LATIN_NAME}",
            re.I,
        ),
        "Uses",
        "fact",
        "project_uses",
    ),
    # What the user prefers to use or do, said of themselves: "prefiro usar stores externas",
    # "ich bevorzuge immer den nachhaltigen Ansatz", "je préfère utiliser pnpm", "я предпочитаю
    # использовать Vue". Not "prefiro que você…" (what this turn should do) and not a pick among
    # options ("我倾向于方案一"): a verb of using/keeping, or "always", follows.
    (
        _lazy(
            r"(?:^|\s)(?:eu\s+)?prefiro\s+(?:sempre\s+)?(?:usar|utilizar|trabalhar\s+com|manter|evitar)\s+\S|"
            r"(?:^|\s)(?:eu\s+)?prefiro\s+sempre\s+\S|"
            r"(?:^|\s)(?:yo\s+)?prefiero\s+(?:siempre\s+)?(?:usar|utilizar|trabajar\s+con|mantener|evitar)\s+\S|"
            r"(?:^|\s)(?:yo\s+)?prefiero\s+siempre\s+\S|"
            r"\bje\s+préfère\s+(?:toujours\s+)?(?:utiliser|travailler\s+avec|garder|éviter)\s+\S|"
            r"\bje\s+préfère\s+toujours\s+\S|"
            r"(?:^|\s)(?:io\s+)?preferisco\s+(?:sempre\s+)?(?:usare|utilizzare|lavorare\s+con|tenere|evitare)\s+\S|"
            r"(?:^|\s)(?:io\s+)?preferisco\s+sempre\s+\S|"
            r"\bich\s+(?:bevorzuge|präferiere)\s+(?:immer|grundsätzlich|generell)\s+\S|"
            r"(?<!\w)я\s+всегда\s+предпочитаю\s+\S|"
            r"(?<!\w)я\s+предпочитаю\s+(?:использовать|работать\s+с|писать\s+на)\s+\S",
            re.I,
        ),
        "Prefers",
        "preference",
        "i_prefer",
    ),
    # Where a part of the work lives, with a path: "API 側のコードは ../api_server である",
    # "设计文档在 docs/design/ 下", "конфиги лежат в ~/.config/nvim", "o código fica em src/app".
    (
        _lazy(
            r"^[^，,。、]{0,12}?(?:代码|代碼|源码|源碼|仓库|倉庫|项目|項目|配置文件|配置|文档|文檔|笔记|筆記|"
            r"脚本|腳本|数据文件|數據文件|博客|网站|網站|素材|备份|備份|日志|日誌|模型)(?:都)?(?:在|位于|位於|放在)\s*"
            rf"{_PATH_SPACED}\s*(?:下|里|裡|中|目录|目錄|下面|文件夹|文件夾)*$|"

            # "我当前项目的数据源是 /data/x.xlsx", "我们项目的入口在 src/main.py": a part of the user's
            # project, whatever it is called, and a path (not a name: "项目的问题是 CORS" says what is wrong)
            r"^(?:我|我们|我們)(?:当前|當前|目前)?(?:的)?(?:项目|項目|工程|仓库|倉庫)的[\u4e00-\u9fff]{1,6}"
            rf"(?:是|在|为|為|位于|位於)\s*{_PATH_SPACED}|"
            r"^[^、。]{0,12}?(?:コード|リポジトリ|ソース|設定ファイル|設定|ドキュメント|スクリプト|データ|ブログ|"
            r"ノート|メモ|バックアップ)は\s*"
            rf"{PATH_WORD}\s*(?:であり|である|です|で|にあります|にある|に置いて(?:い|あ)ります|配下です|$)|"
            r"^[^,]{0,30}?(?:код|репозитори\w*|проект|конфиг\w*|документаци\w*|скрипт\w*|заметки)\s+"
            rf"(?:у\s+меня\s+)?(?:лежит|лежат|находится|находятся|хранится|хранятся)\s+в\s+{PATH_WORD}|"
            r"^[^,]{0,30}?\b(?:código|repositório|projeto|configurações|configuração|documentação|scripts|"
            r"notas|repositorio|proyecto|configuración|documentación)\s+(?:fica|ficam|está|estão|vive|"
            rf"viven|están)\s+(?:em|no|na|en)\s+{PATH_WORD}",
            re.I,
        ),
        "Location",
        "fact",
        "lives_at",
    ),
]


# Where a run-on goes on to the next thing to do ("… e depois veja …", "…然后帮我…").
_NEXT_THOUGHT = _lazy(
    r"\s+(?:e\s+(?:depois|então|veja|verifique)|y\s+(?:luego|después|mira|revisa)|et\s+(?:puis|ensuite)|"
    r"und\s+(?:dann|danach)|и\s+(?:потом|затем|посмотри)|e\s+poi)\b|然后|然後|并且|並且|但是",
    re.I,
)
# The tools named on after a stack part's first one ("React + Vite", "FastAPI和PostgreSQL").
_STACK_END = _lazy(
    r"(?:\s+\d[\w.]*)?(?:\s*(?:[+/、,，&]|和|与|與|и|e|y|et|und|and|with|com|con|mit|で|を使って)\s*"
    r"[A-Za-z][\w.+#/-]*(?:\s+\d[\w.]*)?)*"
)
_WORD_REST = _lazy(r"\S*")
_VENTING = _lazy(r"[啊呀啦嘛哇]$|!|！")


_CONCESSION = _lazy(
    r"\s+(?:(?:auch|selbst)\s+wenn|mesmo\s+que|aunque|même\s+si|anche\s+se|даже\s+если)\b.*$", re.I
)


def _preferred(clause: str, pattern: re.Pattern[str]) -> str:
    m = pattern.search(clause)
    start = m.start() if m else 0
    return _CONCESSION.sub("", clause[start:]).strip()


def about_the_user(body: str, asked_last: bool = False) -> Hit | None:
    """Who the user is or what they work on, said in a clause of its own: "…，我是个编程小白，
    让我看懂" keeps the middle clause; a question or a task after it is another clause.
    asked_last: the sentence ended with a question mark, so its last clause is the asking one
    ("Esse projeto usa Next.js?")."""
    clauses = HEAD.split(body)
    for i, clause in enumerate(clauses):
        clause = clause.strip()
        if asked_last and i == len(clauses) - 1:
            return None
        for pattern, label, kind, sub in USER_RULES:
            if not pattern.search(clause):
                continue
            # "现在安装了 X", "현재 X 설치했어": the tools installed are there now, and stay
            said = NOW.sub(" ", clause) if label in ("Installed", "Has") else clause
            if label == "Prefers":  # "por isso eu prefiro usar X": from the user's words on, and
                # up to a concession ("…Ansatz, auch wenn es mehr Aufwand ist")
                said = clause = _preferred(clause, pattern)
            elif label == "Name":  # "…内 Lastname 인 Dallenger 를 페이지에 추가하자": the name only
                named = pattern.search(clause)
                said = clause = clause[named.start() : named.end()].strip() if named else clause
            if (
                label == "Location"
            ):  # "…は ../api であり、必要ならこれを参照して": the place, said first
                said = clause[: pattern.search(clause).end()]  # type: ignore[union-attr]
                clause = said
            if task_bound(said) or HEDGE.search(clause) or question(clause, clause):
                return None
            if _VENTING.search(clause):
                return None  # "我是小白啊，我不会啊": a sigh over the task at hand
            m = pattern.search(clause)
            assert m is not None
            if label in ("User", "Uses"):
                # "…帮我创建一个skills 我是一个投资经理", "… configure meu wezterm com fish e depois
                # veja …": from the user's words on, up to the run-on's next thing to do
                clause = _NEXT_THOUGHT.split(clause[m.start() :], 1)[0].strip()
            elif label == "Stack":
                # "前端用React写一个登录页": the part and its tools, not the task done with them
                clause = clause[: _STACK_END.match(clause, m.end()).end()]  # type: ignore[union-attr]
            elif label == "Installed":
                # "codex cli는 이미 설치되어있음 omc로 확인해줘": up to the end of its verb
                rest = _WORD_REST.match(clause, m.end())
                clause = clause[: rest.end() if rest else m.end()]
            if label == "User" and negated(clause, body):
                label = "User (not)"
            return f"{label}: {clause}", kind, sub
    return None
