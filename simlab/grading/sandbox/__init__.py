"""Where student code runs during grading: a separate process, and only JSON crosses.

The grader's side is :mod:`~simlab.grading.sandbox.supervisor`; the sandbox's side,
:mod:`~simlab.grading.sandbox.child`, runs in the jail of :mod:`~simlab.grading.sandbox.jail`
and shares its state with the learner's pieces through :mod:`simlab.learn.state`. Each module
here says what it holds in its first line (the map in ``docs/development.md`` lists them all).

Nothing is imported here, so a sandbox process loads only the modules it needs.
"""

__all__: list[str] = []
