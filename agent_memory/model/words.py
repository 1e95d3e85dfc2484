"""Wording every report shares, with nothing imported (not even `re`): a report that costs a
stat per file, such as `capture --all` with nothing new, prints with it."""


def plural(n: int, word: str) -> str:
    """`1 session`, `3 sessions`."""
    return f"{n} {word}" + ("" if n == 1 else "s")
