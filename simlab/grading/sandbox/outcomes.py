"""What a request to a sandbox can end in, as the grader sees it: how a cell went
(:class:`CellResult`), the sandbox lost (:class:`SandboxLost`), or the learner's code raising
(:class:`RemoteError`); and the lines that say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simlab.grading.messages import Message, message, sentence

__all__ = [
    "CellResult",
    "SandboxLost",
    "RemoteError",
    "cell_lost",
    "describe_error",
    "megabytes",
    "replaced_names",
]


@dataclass(frozen=True)
class CellResult:
    """How one code cell went: ``ok``; ``error`` (it raised: ``ename: evalue``, one line);
    ``flood`` (it printed more than the limit); ``timeout`` (it ran past its time); ``dead``
    (its process died: ``os._exit``, a crash, the memory limit, garbage on the pipe);
    ``filled`` (its jail went past a shared folder's cap); ``budget`` (the notebook's budget ran
    out before or while it ran); ``not run`` (no sandbox could be had for it). ``detail`` in
    English, ``said`` the same as a message (``detail`` may be given as one)."""

    index: int
    status: str
    detail: str = ""
    said: Message = field(default=sentence(""), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "said", sentence(self.detail))
        object.__setattr__(self, "detail", str(self.detail))

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class SandboxLost(Exception):
    """The sandbox process is gone (killed on a timeout, exited, crashed, sent garbage):
    ``reason`` in English, ``said`` the same as a message (given as either); ``kind`` says
    why: ``timeout`` (a request ran out of time), ``budget`` (the notebook's budget ran out),
    ``filled`` (a shared folder went past its cap), ``tampered`` (the sandbox found the grader's
    code in it replaced: nothing it says is judged from then on) or ``dead`` (anything else)."""

    def __init__(self, reason: Message | str, kind: str = "dead"):
        super().__init__(str(reason))
        self.said = sentence(reason)
        self.reason = str(reason)
        self.kind = kind


class RemoteError(Exception):
    """Student code raised an exception in the sandbox. ``type`` is its class name, ``kit`` the
    name of the nearest simlab error class it derives from (or None)."""

    def __init__(self, info: dict, what: str | None = None):
        self.info = info
        self.what = what
        self.type = str(info.get("type", "Exception"))
        self.kit = info.get("kit")
        self.message = str(info.get("message", ""))
        # The constructor's arguments as args, so copies (SimPy re-raises that way) stay intact.
        super().__init__(info, what)

    def __str__(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type


#: The cell's own time limits, by the reason a request ran out with, as a cell's detail.
_PAST = {"grader.endless": "grader.past_limit", "grader.endless_cpu": "grader.past_cpu"}


def cell_lost(index: int, lost: SandboxLost) -> CellResult:
    """The result of a cell whose sandbox was lost while it ran."""
    said = lost.said
    if lost.kind == "timeout" and said.id in _PAST:
        said = message(_PAST[said.id], s=said.value("s"))
    elif lost.kind == "timeout" and said.id == "grader.waiting":
        said = message("grader.past_wall", s=said.value("s"))
    elif lost.kind == "dead" and said.id == "grader.no_start":
        return CellResult(index, "not run", said)
    elif lost.kind == "dead" and said.id.startswith("grader.process_"):
        said = message("grader.run_died")
    return CellResult(index, lost.kind, said)


def megabytes(n: int) -> str:
    """``n`` bytes for people: megabytes from 100 kB on, kilobytes below."""
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def describe_error(info: dict) -> str:
    """One line for an exception the sandbox reported: ``ename: evalue`` and its line."""
    text = str(RemoteError(info))
    if info.get("line"):
        text += f" (line {info['line']})"
    return text


def replaced_names(names: object) -> str:
    """The names a sandbox says the notebook replaced, as the feedback shows them: dotted
    Python names only (the list comes from the learner's process), the first one named."""
    shown = [
        n for n in (names if isinstance(names, list) else [])[:20]
        if isinstance(n, str) and len(n) <= 60 and all(p.isidentifier() for p in n.split("."))
    ]  # fmt: skip
    more = f" (and {len(shown) - 1} more)" if len(shown) > 1 else ""
    return shown[0] + more if shown else "code"
