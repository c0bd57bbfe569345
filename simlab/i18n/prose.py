"""Is a line a Chinese reader sees English prose? The test the Chinese notebooks' output passes.

A line holds English prose when three English words follow one another (letters only, two or
more each, an apostrophe allowed: ``not yet made``), outside what is code or data rather than
prose: quoted strings (a value's ``repr``), backquoted code, and any token holding a digit,
``_``, ``.``, ``@``, ``=``, ``/`` or ``-`` (``worker-1``, ``lease_until``, ``t=57``). One English
word among Chinese is a term the glossary keeps (``epoch``, ``worker``); a sentence is not.
"""

from __future__ import annotations

import re

__all__ = ["english_prose"]

_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_CODE_TOKEN = re.compile(r"\S*[0-9_.@=/\\<>\[\]{}-]\S*")
_RUN = re.compile(r"\b[A-Za-z][a-z']+(?:[ ,]+[A-Za-z][a-z']+){2,}\b")


def english_prose(text: str) -> list[str]:
    """The lines of ``text`` that hold English prose (empty when none does)."""
    found = []
    for line in text.splitlines():
        bare = _CODE_TOKEN.sub(" ", _QUOTED.sub(" ", line))
        if _RUN.search(bare):
            found.append(line)
    return found
