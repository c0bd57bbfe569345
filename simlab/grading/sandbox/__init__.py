"""Where student code runs during grading: a separate process, and only JSON crosses.

* :mod:`~simlab.grading.sandbox.supervisor` -- the grader's side: :class:`Sandbox` starts a
  sandbox process, runs cells and calls functions in it, with deadlines.
* :mod:`~simlab.grading.sandbox.child` -- the sandbox's side: holds the student's namespace and
  answers requests; it never decides a grade.
* :mod:`~simlab.grading.sandbox.zygote` -- a warm process that forks sandboxes.
* :mod:`~simlab.grading.sandbox.wire` -- the JSON values and handles that cross the pipe.
* :mod:`~simlab.grading.sandbox.state` -- the state a sandbox shares with the learner's pieces.

Nothing is imported here, so a sandbox process loads only the modules it needs.
"""

__all__: list[str] = []
