"""A person's decisions on staged memory: `adopt` applies review items one by one as
`git commit`s on the user's branch (their hooks run), and `lifecycle` pins, decays,
supersedes and forgets adopted atoms, each one reviewable commit.

May import: everything below it (model … promote); never claude or cli.
"""
