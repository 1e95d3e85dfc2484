"""One module per `git memory` verb; each exposes `run(args) -> int`."""
