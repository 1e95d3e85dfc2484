"""The data model, with no I/O and no imports of other agent_memory packages: the atom (its
schema, id, normalisation and merge), the error types and exit codes, commit-message trailers
and report wording, clock helpers, the on-disk locations of Claude Code and the global memory repo, and the policy
(every threshold, cap, TTL and budget, and the one function that decides expiry and eviction).

May import: the standard library and jsonschema (atom validation) only.
"""
