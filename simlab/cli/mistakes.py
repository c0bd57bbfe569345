"""What the command line says of a mistake a command finds itself, after parsing, by ID
(``cli_mistakes.<key>``), in English (``EN``) and Chinese (``ZH``): a file that cannot be read or
written, options that contradict each other, a value the command refuses; the frame of the line
(``simlab COMMAND: error: ...``) and the few lines a command ends on with another status.

``str.format`` templates: a command raises :class:`~simlab.cli.args.UsageError` with a key and
its values, and :func:`simlab.cli.language.mistake_says` fills the template of the language
chosen. A field named ``why`` holds text another part of the kit wrote (a library's exception),
said in Chinese when :mod:`simlab.cli.causes` knows it. Flags, names, paths and values stay as
they are in both languages.
"""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
