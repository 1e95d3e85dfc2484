"""The committed material of a tier (L2 in the project, L3 in the global memory repo):
`.memory/adopted.log` (`adopted_log`), the marker block rendered from it (`render`), both as
one unit (`files`), reading the adopted atoms fast (`tiers`), the global memory repo
(`global_repo`) and what `init` installs into a repository (`install`).

May import: model, gitio, redact.
"""
