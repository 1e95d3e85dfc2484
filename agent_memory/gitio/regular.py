"""Opening a file only when it is a regular file — the one check every reader of our state
files and the person's settings goes through. Light on purpose (os alone): the per-prompt
recall hook opens its caches through it."""

import os


def open_regular(path: "str | os.PathLike[str]", flags: int = os.O_RDONLY) -> int:
    """A descriptor of `path`, opened only if it is a regular file (checked on the open
    descriptor, non-blocking): a FIFO in its place blocked whoever opened it until a writer
    came (never), and /dev/zero linked there fed a read for ever — a session start or a prompt
    that never returned. OSError for anything else."""
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if (os.fstat(fd).st_mode & 0o170000) != 0o100000:  # not S_ISREG (`stat` unimported)
            raise OSError(22, "not a regular file (a FIFO or a device): not read", os.fspath(path))
    except BaseException:
        os.close(fd)
        raise
    return fd
