"""The language a notebook reads in, set once, and the kit's sentences in it.

A notebook sets its language once, in its first code cell (``set_language("zh")``: the Chinese
notebooks, solutions and exercises ``simlab translate`` generates carry that line, the English
ones need none, English being the default). From then on what the kit says in that kernel
comes from the message catalogs in that language:

* the kit's own sentences (a reveal's frame, a self-check's line, a picture's legend) by ID,
  from the catalogs :data:`KIT` names (:func:`say`);
* the sentences a notebook's code hands the kit (a reveal's ``why``, an assert's message, a
  picture's title) and the lines it prints, from the notebooks' sentence catalogs
  (:data:`SENTENCES`): each entry's English template is the sentence as the notebook writes it
  (``{name}`` where an f-string puts a value), its Chinese the same sentence in Chinese
  (:func:`sentence`, :func:`lines`).

Why the notebooks' own sentences are found by their English: the Chinese notebooks run the
English code byte for byte (one source of code), so their code can only hand the kit English;
the catalog gives that English an ID and a Chinese twin, and :func:`problems` in
:mod:`simlab.grading.messages` holds both languages to the same fields. English output is never
touched: in English every function here returns its input.

The catalogs are the same plain ``EN``/``ZH`` dicts of ``str.format`` templates as the grader's
(:mod:`simlab.grading.messages` lists them all, these included). This module imports none of
the kit's packages, so what a learner's notebook imports stays light.
"""

from __future__ import annotations

import importlib
import io
import sys
from functools import cache
from types import ModuleType
from typing import Any

from simlab.i18n import reading

__all__ = [
    "LANGS",
    "KIT",
    "SENTENCES",
    "set_language",
    "language",
    "say",
    "sentence",
    "lines",
    "catalog_module",
]

LANGS = ("en", "zh")
#: The kit's own catalogs outside the grader: catalog name -> module. The command line's
#: (``cli``: argparse's ``%``-format templates; ``cli_mistakes``: what a command finds after
#: parsing; ``cli_causes``: the libraries' messages it passes on, found by their English;
#: ``cli_help``: its help sentences, keyed by command and flag) are rendered by
#: :mod:`simlab.cli.language`, and ``cli_explore`` (the verdict ``simlab explore`` prints) by
#: that command, not by :func:`say`.
KIT = {
    "learn": "simlab.learn.messages",
    "plots": "simlab.plots.messages",
    "cli": "simlab.cli.messages",
    "cli_mistakes": "simlab.cli.mistakes",
    "cli_causes": "simlab.cli.causes",
    "cli_help": "simlab.cli.helptext",
    "cli_explore": "simlab.cli.explore_words",
}
#: The notebooks' sentence catalogs, one per lab notebook and one per exercise (its solution's
#: code and the stubs the exercise makes of it): catalog name -> module.
SENTENCES = {
    "common": "simlab.i18n.sentences.common",
    **{f"notebook{n:02d}": f"simlab.i18n.sentences.notebook{n:02d}" for n in range(1, 10)},
    **{f"exercise{n:02d}": f"simlab.i18n.sentences.exercise{n:02d}" for n in range(1, 7)},
}

_STATE = {"lang": "en"}


def set_language(lang: str) -> None:
    """Speak ``lang`` (``"en"`` or ``"zh"``) from now on in this process: the kit's sentences,
    and in Chinese every line printed to ``sys.stdout`` that a sentence catalog knows."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    _STATE["lang"] = lang
    out = sys.stdout
    if lang == "en" and isinstance(out, _Translating):
        out.flush()
        sys.stdout = out.inner
    elif lang != "en" and not isinstance(out, _Translating):
        sys.stdout = _Translating(out)


def language() -> str:
    """The language set by :func:`set_language` (``"en"`` until then)."""
    return _STATE["lang"]


@cache
def catalog_module(name: str) -> ModuleType:
    """The module of catalog ``name`` (one of :data:`KIT` or :data:`SENTENCES`)."""
    return importlib.import_module({**KIT, **SENTENCES}[name])


def say(id: str, /, lang: str | None = None, **values: Any) -> str:
    """The kit's message ``id`` (``"learn.right"``: catalog, dot, key) in ``lang`` (the set
    language by default), filled with ``values``."""
    name, _, key = id.partition(".")
    table = getattr(catalog_module(name), (lang or language()).upper())
    return table[key].format(**values)


# ------------------------------------------------------------ the notebooks' sentences ------


@cache
def _exact(lang: str) -> dict[str, str]:
    """English sentence -> its translation, for the templates without fields."""
    out = {}
    for name in SENTENCES:
        module = catalog_module(name)
        for key, english in module.EN.items():
            if "{" not in english:
                out[english] = getattr(module, lang.upper())[key]
    return out


@cache
def _templates(lang: str) -> list[tuple[tuple[str, ...], str]]:
    """(English template as :func:`simlab.i18n.reading.parts` splits it, translation) for
    the templates with fields, in the order they are tried."""
    found = []
    for name in SENTENCES:
        module = catalog_module(name)
        for key, english in module.EN.items():
            if "{" in english:
                found.append((english, getattr(module, lang.upper())[key]))
    # A template that starts with literal text comes before one that starts with a field
    # (which could swallow that text), the longer first within each.
    found.sort(key=lambda pair: (pair[0].startswith("{"), -len(pair[0])))
    return [(reading.parts(english), zh) for english, zh in found]


def sentence(english: str, lang: str | None = None) -> str:
    """``english`` (a sentence a notebook wrote) in ``lang`` (the set language by default):
    its catalog translation, read by the first template of :func:`_templates`' order that
    reads it (:func:`simlab.i18n.reading.best`), with the values it holds kept (each itself
    translated when a catalog knows it); unchanged in English or when no catalog knows it."""
    lang = lang or language()
    if lang == "en" or not english.strip():
        return english
    if (zh := _exact(lang).get(english)) is not None:
        return zh
    found = reading.best(_templates(lang), english, first=True)
    if found is None:
        return english
    template, values, _ = found
    return reading.filled(template, {k: sentence(v, lang) for k, v in values.items()})


def lines(text: str, lang: str | None = None) -> str:
    """``text`` line by line through :func:`sentence` (the line ends kept)."""
    lang = lang or language()
    if lang == "en":
        return text
    return "".join(
        sentence(line[:-1], lang) + "\n" if line.endswith("\n") else sentence(line, lang)
        for line in text.splitlines(keepends=True)
    )


class _Translating(io.TextIOBase):
    """A text stream that writes whole lines to ``inner``, each through :func:`lines`; a
    partial line waits for its end or for :meth:`flush`."""

    def __init__(self, inner: Any):
        self.inner = inner
        self._pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending += text
        done, newline, self._pending = self._pending.rpartition("\n")
        if newline:
            self.inner.write(lines(done + "\n"))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.inner.write(lines(self._pending))
            self._pending = ""
        self.inner.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
