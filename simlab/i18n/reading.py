"""Reading a text as one of a catalog's English templates: which one it is, and its values.

Two readers of the kit find a translation by the English it translates rather than by an ID:
the command line's (:func:`simlab.cli.language.cause_in`, a library's message a command passes
on) and the notebooks' (:func:`simlab.i18n.language.sentence`, a sentence or a printed line a
notebook's code hands the kit). Both read a text here, the same way:

* a template is literal text and ``str.format`` fields; a field may carry a conversion or a
  format spec (``{path!r}``, ``{share:.0%}``), which the English already applied, so its value
  is taken as the text holds it;
* a field matches any text but none, and one whose name ends in ``_n`` only a number as a
  report prints it (the longest first); the reader may read a field's value in turn (another
  message nested in this one: :func:`best`'s ``nested``), say it as that reading says it, or
  refuse it;
* of the ways a text is one of the templates, the reader takes the most specific: the one whose
  literal text covers the most characters, its nested readings' included (of readings as
  specific, the first template in the order given, and in it the shortest values first); or,
  with ``first``, the first template in the order given that reads the text at all.

The two readers differ in what they nest and in which reading they take, and say so where they
call :func:`best`: the command line reads a field named ``why...`` (refusing a value no template
reads: a library's message holds another there) and takes the most specific reading; the
notebooks nest nothing while reading (each value is translated afterwards, when a catalog knows
it) and take the first template of their order, since scoring the nested readings of every value
of a printed line would read each of its substrings.

Like :mod:`simlab.i18n.language`, which reads through it, it imports none of the kit's
packages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

__all__ = ["FIELD", "NUMBER", "parts", "filled", "best"]

#: A field of a template: its name, and the conversion and format spec it may carry.
FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")
#: What a field whose name ends in ``_n`` matches: a number as a report prints it.
NUMBER = re.compile(r"[-+]?[0-9][0-9.,e%+-]*")

T = TypeVar("T")
#: How a field's value is read, given the field's name and the value: (the value as its
#: reading says it, the literal characters that reading matched), or None to refuse it.
Nested = Callable[[str, str], "tuple[str, int] | None"]


def parts(english: str) -> tuple[str, ...]:
    """A template split into literal text and field names: literal, field, literal, ...,
    literal (a template without fields is its literal text alone)."""
    return tuple(FIELD.split(english))


def filled(template: str, values: dict[str, str]) -> str:
    """``template`` with each field replaced by its value, as text (no conversion or format
    spec applied: the values are text already)."""
    return FIELD.sub(lambda m: values[m.group(1)], template)


def best(
    templates: Iterable[tuple[tuple[str, ...], T]],
    text: str,
    nested: Nested | None = None,
    *,
    first: bool = False,
) -> tuple[T, dict[str, str], int] | None:
    """The most specific reading of ``text`` among ``templates`` (each its :func:`parts` and
    what goes with it, a translation): (what goes with the template, the fields' values, the
    literal characters matched); None when no template reads it. ``nested`` reads each field's
    value (without it, a value is the text as it stands); with ``first``, the first template
    that reads ``text`` wins, however specific."""
    found = None
    for split, payload in templates:
        if not (text.startswith(split[0]) and text.endswith(split[-1])):
            continue  # what no reading of this template can get past
        for values, score in _rest(split, 1, text, len(split[0]), {}, len(split[0]), nested):
            if found is None or score > found[2]:
                found = (payload, values, score)
            if first:
                return found
    return found


def _rest(
    split: tuple[str, ...],
    i: int,
    text: str,
    pos: int,
    got: dict[str, str],
    score: int,
    nested: Nested | None,
) -> Iterator[tuple[dict[str, str], int]]:
    """Every reading of ``text[pos:]`` as the template from its ``i``-th part on (a field):
    (the values, the literal characters matched so far)."""
    if i >= len(split):
        if pos == len(text):
            yield got, score
        return
    name, literal = split[i], split[i + 1]
    if i + 2 >= len(split):  # the last field runs to the literal text that ends the template
        ends = [len(text) - len(literal)] if text.endswith(literal) else []
    else:
        ends = _places(text, literal, pos + 1)
    if name.endswith("_n"):
        ends = [end for end in reversed(ends) if NUMBER.fullmatch(text, pos, end)]
    for end in ends:
        if end <= pos:
            continue
        value, more = text[pos:end], 0
        if nested is not None:
            said = nested(name, value)
            if said is None:
                continue
            value, more = said
        score_then = score + more + len(literal)
        got_then = {**got, name: value}
        yield from _rest(split, i + 2, text, end + len(literal), got_then, score_then, nested)


def _places(text: str, literal: str, start: int) -> list[int]:
    """Where ``literal`` occurs in ``text`` from ``start`` on (every place, overlaps kept)."""
    places, at = [], text.find(literal, start)
    while at >= 0:
        places.append(at)
        at = text.find(literal, at + 1)
    return places
