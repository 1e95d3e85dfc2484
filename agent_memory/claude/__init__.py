"""What Claude Code runs and reads: the hook runner (`hooks`), the session-start context and
its cache (`context`, `session_start`), the `.claude/settings.json` entries `init` writes
(`settings`), and Claude Code's own auto-memory directory (`automemory`, `consolidate`).

May import: every domain package; never cli.
"""
