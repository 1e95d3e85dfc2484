"""Rule families for one clean sentence: `directives` (always/never/don't/use X instead of
Y), `preferences` (likes, choices, decisions) and `facts` (the user, the environment, the
project). `extract.dispatch` fixes the order they are tried in.

May import: extract.text, extract.filters, extract.canonical, transcripts, model.
"""
