"""What the kit's libraries say of a mistake the command line passes on, found by its English
(``cli_causes.<key>``), in English (``EN``) and Chinese (``ZH``): a schedule file that cannot be
replayed, a ledger or grading queue that cannot be opened, a roster, a deadline, a late policy, an
override or an nbgrader course that cannot be read, a common reason of the system's, and each
problem ``simlab translate --check`` names.

The libraries raise these in English (their text is their API, and the simulator's and the
ledger's are not the command line's to change); each English template here is one of their
messages, a ``{field}`` where the message holds a value. :func:`simlab.cli.language.cause_in`
finds the template whose English a message is and says it in the language chosen, the values
kept as the English has them; a field named ``why`` holds another such message (said the same
way), and a message no template here matches stays English. Text a library quotes from outside
the kit (the JSON parser's, the database server's) stays as it is. A setting that makes no sense
inside a schedule file is found by the templates of :mod:`simlab.cli.messages` (``setting.*``),
the ones the command line says of a flag.
"""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
