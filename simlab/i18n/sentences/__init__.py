"""The sentences the notebooks' code hands the kit or prints, one catalog per lab notebook
(``notebookNN``) and one per exercise (``exerciseNN``: its solution's code, and the hints the
stubs of the exercise raise, which :func:`simlab.learn.self_check` shows).

Each module holds ``EN`` and ``ZH``, dicts of ``str.format`` templates by key, like every
catalog of the kit (:mod:`simlab.grading.messages`). An ``EN`` template is a sentence exactly as
the notebook's code writes it: a literal as it is, an f-string with ``{name}`` for each value it
puts in (a line it prints, a reveal's ``why``, an assert's message, a picture's title).
:func:`simlab.i18n.language.sentence` finds a sentence by its English and gives it in the
notebook's language, the values kept. :mod:`~simlab.i18n.sentences.common` holds the lines
every notebook prints.
"""
