"""Is a line a Chinese reader sees English prose? The test the Chinese notebooks' output passes.

A line holds English prose when three English words follow one another (letters only, two or
more each, an apostrophe allowed: ``not yet made``) and one of them is a word English sentences
are built with (``the``, ``of``, ``is``, ``for``...: :data:`GLUE`), outside what is code or data
rather than prose: quoted strings (a value's ``repr``), backquoted code, a name between
「」 (a question's ID), a command line of the kit to the line's end (``simlab simulate --seed 0
--effects all``: a run's replay), and any token holding a
digit, ``_``, ``.``, ``@``, ``=``, ``/`` or ``-`` (``worker-1``, ``lease_until``, ``t=57``). One
English word among Chinese is a term the glossary keeps (``epoch``, ``worker``), and a row of
names (``claim ok epoch``, the history's operations) is data; a sentence is neither.
"""

from __future__ import annotations

import re

__all__ = ["english_prose", "GLUE"]

#: Words no English sentence does without for long, and no row of names holds.
GLUE = frozenset(
    "a an the of to in on at by for from with without into after before between is are was "
    "were be been has have had not no and or but if so as than that this these those which "
    "who what when where why how it its you your we our they their there here only still "
    "per each every any some all more less".split()
)

_QUOTED = re.compile(
    r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|「[^」\n]*」|\bsimlab [a-z][a-z-]* --[^\n]*"
)
_CODE_TOKEN = re.compile(r"\S*[0-9_.@=/\\<>\[\]{}-]\S*")
_RUN = re.compile(r"\b[A-Za-z][a-z']+(?:[ ,]+[A-Za-z][a-z']+){2,}\b")


def english_prose(text: str) -> list[str]:
    """The lines of ``text`` that hold English prose (empty when none does)."""
    found = []
    for line in text.splitlines():
        bare = _CODE_TOKEN.sub(" ", _QUOTED.sub(" ", line))
        runs = (m.group().replace(",", " ").lower().split() for m in _RUN.finditer(bare))
        if any(GLUE.intersection(words) for words in runs):
            found.append(line)
    return found
