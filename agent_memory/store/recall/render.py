"""Recalled atoms → the `<agent-memory recall>` block the hook injects: one `- [kind] claim
(seen in N sessions, not adopted)` line per hit, best first, whole lines within the byte budget."""

from agent_memory.model.controls import show_controls
from agent_memory.model.policy import RECALL_BUDGET_BYTES
from agent_memory.model.wrapper import escape_wrapper

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from collections.abc import Iterable, Sequence

DEFAULT_BUDGET_BYTES = RECALL_BUDGET_BYTES


class Hit:
    """One recalled atom, with what rendering and the `recall` verb need."""

    __slots__ = (
        "id",
        "claim",
        "kind",
        "confidence",
        "score",
        "last_seen",
        "pinned",
        "contested_day",
        "sessions",
    )

    def __init__(self, id: str, claim: str, kind: str, confidence: str, score: float,
                 last_seen: float, pinned: bool, contested_day: str, sessions: int = 1) -> None:  # fmt: skip
        self.id = id
        self.claim = claim
        self.kind = kind
        self.confidence = confidence
        self.score = score
        self.last_seen = last_seen
        self.pinned = pinned
        self.contested_day = contested_day
        self.sessions = sessions

    @property
    def contested(self) -> bool:
        return bool(self.contested_day)

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Hit({self.id}, {self.kind}, {self.score:.3f}, {self.claim!r})"


OPEN_TAG = "<agent-memory recall>\n"
CLOSE_TAG = "</agent-memory>"
# What Claude is told about the lines below it: candidates, not rules.
PREAMBLE = (
    "Unreviewed candidates from earlier sessions (not adopted; weigh them accordingly):\n"
)


def _safe(claim: str) -> str:
    # One line, no control character, and a claim cannot close (or open) our block early, in
    # any case: the same escape as the SessionStart block's (committed.render.one_line).
    return escape_wrapper(show_controls(" ".join(claim.split())))


def render_line(hit: Hit) -> str:
    line = f"- [{hit.kind}] {_safe(hit.claim)}"
    if hit.contested_day:
        from agent_memory.model.tags import contested_tag  # rare: one module less per prompt

        line += " " + contested_tag(hit.contested_day)
    noun = "session" if hit.sessions == 1 else "sessions"
    return line + f" (seen in {hit.sessions} {noun}, not adopted)\n"


def fit(hits: "Iterable[Hit]", k: int, budget_bytes: int) -> list[Hit]:
    """Best-first, whole lines only: a line that does not fit is dropped, never cut."""
    used = len((OPEN_TAG + PREAMBLE).encode("utf-8")) + len(CLOSE_TAG.encode("utf-8"))
    chosen: list[Hit] = []
    for hit in hits:
        if len(chosen) >= k:
            break
        size = len(render_line(hit).encode("utf-8"))
        if used + size <= budget_bytes:
            chosen.append(hit)
            used += size
    return chosen


def render_recall(hits: "Sequence[Hit]", budget_bytes: int = DEFAULT_BUDGET_BYTES) -> str:
    """`<agent-memory recall>`, the preamble, one `- [kind] claim (seen in N sessions, not
    adopted)` line per hit, `</agent-memory>`; ≤ budget_bytes of UTF-8; empty string when
    nothing fits or there are no hits (a prompt with nothing relevant gets no context)."""
    chosen = fit(hits, len(hits), budget_bytes)
    if not chosen:
        return ""
    return OPEN_TAG + PREAMBLE + "".join(render_line(h) for h in chosen) + CLOSE_TAG


def dump_hook_payload(text: str) -> str:
    """`json.dumps(hook_payload(text), ensure_ascii=False)` without importing json (~1.2 ms)."""
    from agent_memory.model.fastjson import additional_context

    return additional_context("UserPromptSubmit", text)
