"""Feedback by message ID: a check fails with an ID and its values, each language renders it.

A :class:`Message` is an ID (``"fencing.cancel_bumps"``: the catalog's name, a dot, the key)
and its named values. The catalogs are plain dicts, one per language (``EN`` and ``ZH``), of
``str.format`` templates with named fields: each exercise's in the ``messages`` module of its
folder (``simlab/grading/checks/<exercise>/messages.py``), the grader's own frame (the lines
around a check's sentence, the notebook run, the sandbox) in :mod:`simlab.grading.frame_messages`;
the rest of the kit's (a notebook's reveals and self-checks, the pictures, the notebooks' own
sentences) in the catalogs :mod:`simlab.i18n.language` names, which a notebook renders in the
language it set.
Plain dicts rather than gettext: the kit has two languages, the catalogs are Python the
architecture test and ruff already read, a missing key or a stray placeholder is found by
:func:`problems` in a plain test, and there is no compiled ``.mo`` file to keep in step.

A value is a number, a string (shown as it is: a check passes the learner's values already
filtered by :mod:`simlab.grading.student`), a :class:`Message` (a nested sentence, rendered in
the same language) or a tuple of values (a story's moves: rendered each and joined with the
language's separator, ``grader.sep``). Nothing is rendered before the report is made
(:func:`render`), and the English rendering is what ``str()`` gives, so the grader's English
feedback and its filters (:func:`simlab.grading.text.quotes_hidden`, the caps) work on it.

A rendering node may cut its text: ``short`` collapses whitespace and cuts to that many
characters (one failure in a feedback line), ``cap`` cuts to that many characters
(:func:`simlab.grading.text.bounded`: the bound where a grade takes a text in); :func:`shortened`
and :func:`capped` wrap a message in such a node, so a cap applies to the rendered text of the
language shown. Nothing here escapes: a rendered message is text as produced, and each medium
that shows it escapes it once (:mod:`simlab.grading.text`).

Text that is not the kit's own, such as a Python exception's text or a name a notebook chose,
is a *verbatim* message (:func:`sentence`): the same characters in every language.
"""

from __future__ import annotations

import importlib
import json
import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from simlab.grading.text import bounded
from simlab.i18n.language import KIT, LANGS, SENTENCES
from simlab.i18n.language import sentence as translated

__all__ = [
    "LANGS",
    "Message",
    "message",
    "speaker",
    "sentence",
    "stored",
    "render",
    "shortened",
    "capped",
    "catalog",
    "catalog_names",
    "problems",
    "untranslated",
    "VERBATIM",
    "NOTEBOOK_TEXT",
    "notebook_text",
    "SAME",
    "Said",
]

#: The ID of text shown as it is in every language (see :func:`sentence`).
VERBATIM = "grader.verbatim"
#: The ID of text an exercise's own code wrote (see :func:`notebook_text`).
NOTEBOOK_TEXT = "grader.notebook_text"
#: The ID of a node that only cuts its text (see :func:`shortened`, :func:`capped`).
SAME = "grader.same"
#: Where the catalogs that are not an exercise's live: the grader's frame, the instructor's
#: overrides, then the rest of the kit's (see :mod:`simlab.i18n.language`).
_FRAME = {
    "grader": "simlab.grading.frame_messages",
    "override": "simlab.grading.override_messages",
    **KIT,
    **SENTENCES,
}


@dataclass(frozen=True)
class Message:
    """A feedback sentence by ID: ``values`` are ``(name, value)`` pairs in name order."""

    id: str
    values: tuple[tuple[str, Any], ...] = ()
    short: int = 0
    cap: int = 0

    def __str__(self) -> str:
        return render(self, "en")

    def value(self, name: str) -> Any:
        """The value named ``name`` (KeyError when there is none)."""
        return dict(self.values)[name]

    def to_data(self) -> dict[str, Any]:
        """The message as JSON values (nested messages as objects, tuples as lists)."""
        data: dict[str, Any] = {"id": self.id, "values": {k: _data(v) for k, v in self.values}}
        if self.short:
            data["short"] = self.short
        if self.cap:
            data["cap"] = self.cap
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Message:
        """The message :meth:`to_data` made (a KeyError or TypeError for anything else)."""
        values = tuple(sorted((str(k), _undata(v)) for k, v in data["values"].items()))
        return cls(str(data["id"]), values, int(data.get("short", 0)), int(data.get("cap", 0)))


def _data(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_data()
    if isinstance(value, tuple):
        return [_data(v) for v in value]
    return value


def _undata(value: Any) -> Any:
    if isinstance(value, dict):
        return Message.from_data(value)
    if isinstance(value, list):
        return tuple(_undata(v) for v in value)
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"not a message value: {type(value).__name__}")


def message(id: str, /, **values: Any) -> Message:
    """The message ``id`` with ``values``; a ValueError when the English catalog has no such
    ID or its template names other fields (a kit bug, found when the check runs)."""
    wanted = fields(template(id, "en"))
    if set(values) != wanted:
        raise ValueError(f"message {id} takes {sorted(wanted)}, got {sorted(values)}")
    for value in values.values():
        _check_value(value)
    return Message(id, tuple(sorted(values.items())))


def _check_value(value: Any) -> None:
    if isinstance(value, tuple):
        for v in value:
            _check_value(v)
    elif not (value is None or isinstance(value, (str, int, float, Message))):
        raise TypeError(f"not a message value: {type(value).__name__}")


def speaker(name: str) -> Callable[..., Message]:
    """``say(key, **values)``: the messages of catalog ``name`` (``say("x")`` is
    ``message(f"{name}.x")``)."""

    def say(key: str, /, **values: Any) -> Message:
        return message(f"{name}.{key}", **values)

    say.__doc__ = f"A message of the catalog {name!r} (see :func:`message`)."
    return say


def stored(data: Any) -> Message | None:
    """The message :meth:`Message.to_data` stored as ``data`` (a JSON object, or its text);
    None when there is none or it is not one this kit can render."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            return None
    if not isinstance(data, dict):
        return None
    try:
        said = Message.from_data(data)
        render(said, "en")
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return said


def sentence(said: Message | str) -> Message:
    """``said`` as a message: a string (text from the learner's side, such as a Python
    exception's text) becomes a verbatim one, shown as it is in every language, never
    translated."""
    if isinstance(said, Message):
        return said
    return Message(VERBATIM, (("text", str(said)),))


class Said(Exception):
    """An exception whose one line (its first argument) is a :class:`Message` or a string,
    shown as it is in every language; ``str()`` gives it in English."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def said(self) -> Message:
        """The line as a message."""
        return sentence(self.args[0] if self.args else "")


def notebook_text(text: str) -> Message:
    """Text an exercise's own code wrote (a stub's hint), shown in the reader's language when
    the notebooks' sentence catalogs know it (:func:`simlab.i18n.language.sentence`), else as
    it is: the Chinese exercises run the English code, so their hints reach the grader in
    English."""
    return Message(NOTEBOOK_TEXT, (("text", str(text)),))


def shortened(said: Message | str, chars: int) -> Message:
    """``said`` with its whitespace collapsed and cut to ``chars`` characters (``...``)."""
    return Message(SAME, (("text", sentence(said)),), short=chars)


def capped(said: Message | str, chars: int) -> Message:
    """``said`` cut to ``chars`` characters, not escaped (as
    :func:`~simlab.grading.text.bounded` cuts), in every language; each text among its values
    is cut so too, so the message itself holds no more than that per value."""
    return Message(SAME, (("text", _bounded_values(sentence(said), chars)),), cap=chars)


def _bounded_values(value: Any, chars: int) -> Any:
    """``value`` with every text in it (a nested message's, a tuple's) cut to ``chars``."""
    if isinstance(value, Message):
        values = tuple((k, _bounded_values(v, chars)) for k, v in value.values)
        return Message(value.id, values, value.short, value.cap)
    if isinstance(value, tuple):
        return tuple(_bounded_values(v, chars) for v in value)
    if isinstance(value, str) and len(value) > chars:
        return bounded(value, chars)
    return value


def render(said: Message | str, lang: str = "en") -> str:
    """``said`` in ``lang``: its template filled with its values, nested messages rendered in
    the same language; cut where a node says so."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    said = sentence(said)
    values = {k: _rendered(v, lang) for k, v in said.values}
    if said.id == NOTEBOOK_TEXT:
        values["text"] = translated(values["text"], lang)
    text = template(said.id, lang).format(**values)
    if said.short:
        text = _short(text, said.short)
    if said.cap:
        text = bounded(text, said.cap)
    return text


def untranslated(said: Message | str) -> list[str]:
    """What inside ``said`` no catalog renders in every language: a plain string (a sentence
    written outside any catalog), or the ID of a message that lacks a language's template
    (empty when every sentence has its Chinese; verbatim text counts, being shown as it is)."""
    if isinstance(said, str):
        return [said] if said else []
    found: list[str] = []
    for lang in LANGS:
        try:
            template(said.id, lang)
        except ValueError:
            found.append(said.id)
            break
    for _, value in said.values:
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, Message):
                found += untranslated(v)
    return found


def _rendered(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, tuple):
        return template("grader.sep", lang).join(str(_rendered(v, lang)) for v in value)
    return value


def _short(text: str, chars: int) -> str:
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    return text[: chars - 3].rstrip(" ,;") + "..."


# ------------------------------------------------------------------------ catalogs ----------


def catalog_names() -> list[str]:
    """Every catalog: the frame's and the rest of the kit's, then each exercise folder's that
    has a ``messages`` module."""
    folders = sorted(p.parent for p in (Path(__file__).parent / "checks").glob("*/messages.py"))
    return [*_FRAME, *(f.name for f in folders)]


@cache
def catalog(name: str) -> ModuleType:
    """The module of catalog ``name`` (it holds ``EN`` and ``ZH``)."""
    return importlib.import_module(_FRAME.get(name, f"simlab.grading.checks.{name}.messages"))


def template(id: str, lang: str) -> str:
    """The template of ``id`` in ``lang`` (a ValueError when there is none)."""
    name, _, key = id.partition(".")
    try:
        table = getattr(catalog(name), lang.upper())
        return table[key]
    except (ImportError, AttributeError, KeyError):
        raise ValueError(f"no message {id!r} in {lang}") from None


@cache
def fields(text: str) -> frozenset[str]:
    """The names of the fields of a template (a positional or attribute field is refused)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is None:
            continue
        if not name.isidentifier():
            raise ValueError(f"template field {name!r} is not a plain name: {text!r}")
        names.add(name)
    return frozenset(names)


def problems() -> list[str]:
    """What is wrong with the catalogs: an ID missing in a language, or a template whose
    fields differ between languages (empty when all is in order)."""
    found = []
    for name in catalog_names():
        tables = {lang: getattr(catalog(name), lang.upper(), None) for lang in LANGS}
        for lang, table in tables.items():
            if not isinstance(table, dict):
                found.append(f"catalog {name} has no {lang.upper()} dict")
        if any(not isinstance(t, dict) for t in tables.values()):
            continue
        for key in sorted(set().union(*tables.values())):
            have = {lang: t[key] for lang, t in tables.items() if key in t}
            for lang in LANGS:
                if lang not in have:
                    found.append(f"{name}.{key} has no {lang} template")
            try:
                shapes = {lang: fields(t) for lang, t in have.items()}
            except ValueError as exc:
                found.append(f"{name}.{key}: {exc}")
                continue
            if len(set(shapes.values())) > 1:
                found.append(f"{name}.{key}: the languages' fields differ: {shapes}")
    return found
