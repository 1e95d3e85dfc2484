"""Only what pyproject.toml cannot say: setuptools' editable install (PEP 660, `pip install
-e .`, the README's install) asks the distribution `has_data()` before it installs data files,
a method no setuptools Distribution has (it has `has_data_files`; setuptools 65 to 84 at least),
so an editable install never installed `share/man/man1/git-memory.1` and `git memory --help`
(git's `man git-memory`, which runs nothing of ours) found no page until a first `git memory`
command linked it (agent_memory/cli/manlink.py). A wheel is built as before."""

from setuptools import setup
from setuptools.dist import Distribution


class _Distribution(Distribution):  # type: ignore[misc]
    def has_data(self) -> bool:
        return bool(self.has_data_files())


setup(distclass=_Distribution)
