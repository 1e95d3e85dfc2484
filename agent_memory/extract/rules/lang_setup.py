"""The rule-table entries for the user's setup said in another language: the project they are
building, their machine, OS, editor and shell, the tools they work with, their account name and
the project's new name ("我的系统是 macOS", "estoy en Windows", "usamos Supabase")."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_words import OS_NAMES, POLITE, SETUP_NAMED, TOOL2
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

SETUP_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # What the user is building: "我想做一个…系统", "…웹사이트를 만들꺼야" (the project).
    (
        _lazy(
            r"^(?:我|我们|我們)(?:现在|現在|目前)?(?:想要|想|要|正在|在)(?:做|开发|開發|写|寫|搭建|建|建立)一(?:个|個|款|套)"
            r"[^，,。?？]{2,40}?(?:系统|系統|网站|網站|应用|應用|app|平台|工具|小程序|插件|游戏|遊戲)|"
            r"(?:웹사이트|사이트|앱|서비스|시스템|플랫폼|툴|게임)(?:를|을)\s*만들(?:꺼야|거야|려고|고\s*있어|고\s*싶어)",
            re.I,
        ),
        "Project",
        "fact",
        "project_is",
    ),
    # The user's machine: "我的系统是 macOS", "estoy en Windows", "je suis sous Linux",
    # "ich arbeite unter Fedora", "я на маке", "mi editor es Neovim".
    (
        _lazy(
            rf"^(?:我的|我)?(?:系统|系統|电脑|電腦|操作系统|作業系統|编辑器|編輯器|终端|終端|shell|IDE|"
            rf"开发环境|開發環境|本地环境|本地環境)"
            rf"(?:是|用的是)\s*{TOOL2}|"
            # "我用的编辑器是 Neovim", "我平时用的终端是 WezTerm"
            rf"^(?:我|我们|我們)(?:平时|平時|日常|一直)?(?:用的|使用的)(?:系统|系統|电脑|電腦|编辑器|編輯器|"
            rf"终端|終端|shell|IDE|操作系统)(?:是)\s*{TOOL2}|"
            # "我在 Windows 上开发": where the user works, said as the whole clause
            rf"^(?:我|我们|我們)(?:平时|平時|一直|都|主要)?(?:是)?在\s*(?:{OS_NAMES})\s*(?:系统|系統)?(?:上|下|里|裡)"
            r"(?:开发|開發|工作|写代码|寫代碼|编程|編程)(?:的)?$|"
            # "私は Windows ユーザーです": the user's OS as what they are
            rf"^(?:私は|僕は|自分は)\s*(?:{OS_NAMES})\s*ユーザー(?:です)?$|"
            # "제 컴퓨터는 맥북입니다", "저는 윈도우에서 개발합니다"
            r"^(?:제|내)\s*(?:컴퓨터|노트북|PC)(?:는|은)\s*(?:맥북|맥|윈도우|리눅스|우분투)\s*(?:입니다|이에요|예요|야)?$|"
            r"^(?:저는|전|나는|난)\s*(?:맥|윈도우|리눅스|우분투)에서\s*(?:개발|작업)\s*(?:합니다|해요|하고\s*있어요|해)$|"
            rf"^(?:私の|僕の|うちの)?(?:開発)?(?:OS|環境|エディタ|ターミナル|シェル)は\s*{TOOL2}(?:\s*\d[\w.]*)?\s*"
            r"(?:です|を使っています)?$|"
            rf"^(?:제|내)?\s*(?:OS|운영체제|에디터|터미널|개발\s*환경|환경)(?:는|은)\s*{TOOL2}|"
            # "저는 맥을 써요", "윈도우 사용합니다": the OS named in Hangul, said as a state
            r"^(?:저는|전|나는|난)?\s*(?:맥북?|윈도우|리눅스|우분투)\s*(?:을|를)?\s*"
            r"(?:써요|씁니다|써|사용해요|사용합니다|사용하고\s*있어요|쓰고\s*있어요|사용\s*중이에요)$|"
            rf"^(?:я|мы)\s+(?:сижу\s+|работаю\s+)?(?:на|под)\s+(?:{OS_NAMES}|маке|макбуке|линуксе|винде|"
            rf"убунту)(?!\w)|"
            rf"^(?:мой|моя|мое|моё)\s+(?:редактор|терминал|ос|система|ноутбук|шелл)\s*(?:[—–-]\s*|это\s+)?{SETUP_NAMED}{TOOL2}|"
            rf"^(?:eu\s+|yo\s+)?(?:estoy|trabajo|estou|trabalho)\s+(?:en|con|no|na|em|com|usando|utilizando)\s+"
            rf"(?:{OS_NAMES})\b|"
            rf"^(?:mi|meu)\s+(?:sistema(?: operativo| operacional)?|editor|terminal|pc|ordenador|"
            rf"computador|computadora)\s+(?:es|é)\s+(?:(?:o|a|el|la)\s+(?-i:(?=[A-Z])))?{SETUP_NAMED}{TOOL2}|"
            rf"^je\s+(?:suis|travaille)\s+(?:sous|sur)\s+(?:un\s+|une\s+)?(?:{OS_NAMES})\b|"
            rf"^mon\s+(?:système|os|éditeur|terminal)\s+est\s+{SETUP_NAMED}{TOOL2}|"
            rf"^(?:io\s+)?(?:sono|lavoro)\s+(?:su|con)\s+(?:{OS_NAMES})\b|"
            rf"^(?:il\s+)?mio\s+(?:sistema(?: operativo)?|editor|terminale|pc|computer)\s+è\s+{SETUP_NAMED}{TOOL2}|"
            rf"^ich\s+(?:bin|arbeite)\s+(?:auf|unter|mit)\s+(?:{OS_NAMES})\b|"
            rf"^mein\s+(?:system|betriebssystem|editor|terminal)\s+ist\s+{SETUP_NAMED}{TOOL2}",
            re.I,
        ),
        "Environment",
        "fact",
        "user_env",
    ),
    # "I use X" with a tool named in code letters: "我一直用 neovim" (a habit; a bare "我用 X …" is
    # mostly what was just done with it), "я пользуюсь fish",
    # "eu já uso o Claude Code", "ich nutze WezTerm", "j'utilise Arch".
    (
        _lazy(
            rf"^(?:我|我们|我們)(?:一直|平时|平時|主要|日常|都|平常|习惯|習慣|一般|通常|向来|向來){{1,2}}(?:在)?(?:用|使用)\s*{TOOL2}(?!\s*(?:代替|替代|替换|替換|取代))|"
            # "我们用的包管理器是 pnpm": the kind of tool, then which (a name in code letters)
            rf"^(?:我|我们|我們)(?:平时|平時|日常|一直|现在|現在)?(?:用的|使用的)"
            # (a value of the task is no tool: "用的版本是 v2", "用的分支是 dev", "用的端口是 8080")
            rf"(?!版本|方案|分支|文件|目录|目錄|端口|命令|参数|參數|账号|帳號|密码|密碼|路径|路徑|模板)[\u4e00-\u9fff]{{1,6}}是\s*{TOOL2}|"
            # "我们团队用 GitLab", "我们公司使用 Jira": the team's tool
            rf"^(?:我们|我們)(?:团队|團隊|公司|组|組|这边|這邊)(?:一直|都|主要|目前)?(?:在)?(?:用|使用|采用|採用)"
            rf"(?:的是)?\s*{TOOL2}|"
            rf"^(?:但是|不过|不過|其实|其實)?(?:我|我们|我們)(?:在用|用的是|使用的是)\s*"
            rf"(?:{TOOL2}|[\u4e00-\u9fff]{{2,12}}(?:[，,。]|$))|"
            # "我是用fork，这个git可视化工具": the tool, and the clause ends with it ("我是用cmd打开的"
            # is how something was just done)
            rf"^(?:但是|不过|不過|其实|其實)?(?:我|我们|我們)(?:是用|是使用)\s*{TOOL2}\s*(?:[，,]|$)|"
            rf"^(?:私は|うちは)?{TOOL2}\s*(?:を|も)?(?:使っています|使っている|使用しています)|"
            rf"^(?:저는|전|우리는|저희는|(?:우리|저희)\s*(?:팀|회사)은)\s*{TOOL2}\s*(?:을|를)?\s*(?:사용|써)|"
            rf"^(?:지금\s*)?(?:제가\s*|내가\s*)?(?:쓰는|사용하는)\s*(?:게|것은|건)\s*{TOOL2}|"
            rf"^(?:я|мы)\s+(?:всегда\s+)?(?:использую|используем|пользуюсь|пользуемся|сижу на)\s+{TOOL2}|"
            rf"^(?:eu\s*,?\s*(?:[^,]{{1,20}},\s*)?|yo\s+)?(?:já\s+|siempre\s+|sempre\s+)?(?:uso|utilizo)\s+"
            # an article only before a name ("o Obsidian"), not "el comando", "a versão"
            rf"(?:(?:o|a|el|la)\s+(?-i:(?=[A-Z])))?(?!(?:o|a|el|la|los|las|os|as|un|una|um|uma)\b){TOOL2}|"
            rf"^(?:ich|wir)\s+(?:benutze|nutze|verwende|benutzen|nutzen|verwenden)\s+"
            # (not "ich benutze kein Windows": what is not used, read as the tool's name)
            rf"(?!(?:die|der|das|den|dem|des|ein|eine|einen|einem|kein|keine|keinen|keinem|nicht|nie|"
            rf"niemals|mehr)\b){TOOL2}|"
            # the project named first: "in diesem Projekt verwenden wir X", "dans ce projet on utilise X"
            rf"^in\s+(?:diesem|unserem)\s+(?:projekt|repo|repository)\s*,?\s+(?:verwenden|nutzen|benutzen)\s+wir\s+"
            rf"(?!(?:die|der|das|den|dem|des|ein|eine|einen|einem|noch)\b){TOOL2}|"
            rf"^(?:dans\s+(?:ce|notre)\s+(?:projet|dépôt|repo)\s*,?\s+)?(?:j'utilise|nous utilisons|on utilise)\s+"
            rf"(?!(?:le|la|les|un|une|des|du|encore)\b){TOOL2}",
            re.I,
        ),
        "Uses",
        "fact",
        "i_use",
    ),
    # More ways to say what one works with: Russian without the pronoun ("пользуюсь fish",
    # "пишем на Go"), the plural of a team ("usamos Supabase", "usiamo Django"), working with a
    # tool ("trabalho com Flutter", "lavoro con Rails", "ich arbeite mit Nix"), the Korean and
    # Japanese ongoing forms ("Neovim 쓰고 있어요", "Rails で開発しています"), and an account's
    # name ("github用户名是 X").
    (
        _lazy(
            rf"^(?:пользуюсь|пользуемся|использую|используем|пишу\s+на|пишем\s+на|работаю\s+в|"
            rf"работаем\s+в)\s+{TOOL2}|"
            rf"^(?:(?:en\s+este\s+proyecto|neste\s+projeto|nesse\s+projeto|in\s+questo\s+progetto)\s*,?\s+)?"
            rf"(?:nós\s+|nosotros\s+|noi\s+)?(?:usamos|utilizamos|usiamo|utilizziamo)\s+"
            rf"(?:(?:o|a|el|la|il)\s+(?-i:(?=[A-Z])))?(?!(?:o|a|el|la|il|los|las|os|as|un|una|um|uma|gli|i|le)\b)"
            rf"{TOOL2}|"
            rf"^(?:eu\s+|yo\s+|io\s+)?(?:trabalho|trabajo|lavoro)\s+(?:com|con)\s+(?-i:(?=[A-Z])){TOOL2}|"
            rf"^(?:je\s+travaille|ich\s+arbeite|wir\s+arbeiten)\s+(?:avec|mit)\s+(?-i:(?=[A-Z])){TOOL2}|"
            rf"^(?:저는\s*|전\s*|우리는\s*)?{TOOL2}\s*(?:을|를)?\s*(?:쓰고|사용하고)\s*(?:있어|있습니다|있음)|"
            rf"{TOOL2}\s*(?:で|を使って|を使用して)(?:作成|開発|構築|実装|運用|管理)(?:しています|している|してます)"
            r"(?:よ|ね)?$",
            re.I,
        ),
        "Uses",
        "fact",
        "i_use",
    ),
    # The project's new name: "Переименуй проект в NUDGE", "把项目改名为 Nudge", "プロジェクト名を
    # Nudge に変更して", "renomeie o projeto para Nudge" (the project or its repository, not a
    # file or a function of the task).
    (
        _lazy(
            rf"^(?:{POLITE})?(?:давай\s+)?переименуй(?:те)?\s+(?:наш\s+|мой\s+)?(?:проект|репозиторий|репо|"
            rf"приложение)\s+в\s+{TOOL2}|"
            rf"^(?:{POLITE})?(?:把)?(?:我的|我们的|我們的)?(?:项目|項目|仓库|倉庫)(?:名|名字|名称|名稱)?"
            rf"(?:改名|重命名|更名|改)(?:为|為|成|叫)\s*{TOOL2}|"
            rf"^(?:プロジェクト|リポジトリ)(?:名|の名前)?を\s*{TOOL2}\s*に(?:変更|リネーム)|"
            rf"^프로젝트\s*(?:이름|명)을\s*{TOOL2}\s*(?:로|으로)\s*(?:바꿔|변경)|"
            rf"^(?:renomeie|renomear|renombra|renombrar|renomme|renommer|renommez|rinomina|rinominare)\s+"
            rf"(?:o|el|le|il)\s+(?:projeto|repositório|proyecto|repositorio|projet|dépôt|progetto)\s+"
            rf"(?:para|a|en|in)\s+{TOOL2}|"
            rf"^benenne\s+das\s+(?:projekt|repository|repo)\s+in\s+{TOOL2}\s+um",
            re.I,
        ),
        "Renamed",
        "decision",
        "rename_project",
    ),
    # The user's account name: "github用户名是 X", "我的账号是 X".
    (
        _lazy(
            rf"^(?:我的)?(?:github|gitlab|git)?\s*(?:用户名|用戶名|账号|帳號|账户|賬戶)(?:是|为|為)\s*"
            # (a server's login "用户名是root，密码是…" is no account of the user's)
            rf"(?!(?:root|admin|administrator|user|ubuntu|test|guest)\b){TOOL2}",
            re.I,
        ),
        "Account",
        "fact",
        "account",
    ),
]
