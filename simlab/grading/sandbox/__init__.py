"""Where student code runs during grading: a separate process, and only JSON crosses.

* :mod:`~simlab.grading.sandbox.jail` -- the bubblewrap jail every run of student code goes
  into (user nobody, own namespaces, read-only runtime, hard limits).
* :mod:`~simlab.grading.sandbox.supervisor` -- the grader's side: :class:`Sandbox` starts a
  jailed sandbox process, runs the notebook's cells and calls functions in it, with deadlines;
  :mod:`~simlab.grading.sandbox.outcomes` holds what a request ends in.
* :mod:`~simlab.grading.sandbox.child` -- the sandbox's side: runs the cells through IPython's
  ``InteractiveShell``, holds the student's namespace and answers requests; it never decides a
  grade; :mod:`~simlab.grading.sandbox.cells` -- which cells it runs as plain Python, without
  the shell.
* :mod:`~simlab.grading.sandbox.zygote` -- a warm process that forks unjailed sandboxes
  (``--no-sandbox`` only).
* :mod:`~simlab.grading.sandbox.wire` -- the JSON values and handles that cross the pipe;
  :mod:`~simlab.grading.sandbox.frames` -- how they cross: length-prefixed frames read against
  a deadline, refused when partial, oversized, malformed or too deep.
* :mod:`~simlab.grading.sandbox.exchange` -- the one host folder a sandbox may write, and safe
  copies in and out of it for the hidden checks.
* :mod:`~simlab.learn.state` -- the state a sandbox shares with the learner's pieces.
* :mod:`~simlab.grading.sandbox.meter` -- where the grader cannot cap a jail (not root): its CPU
  time judges a request, and its shared folders are measured against their caps.

Nothing is imported here, so a sandbox process loads only the modules it needs.
"""

__all__: list[str] = []
