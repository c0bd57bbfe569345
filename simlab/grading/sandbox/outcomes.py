"""What a sandbox's work ends in, as the grader sees it: how a cell went
(:class:`CellResult`), a sandbox lost (:class:`SandboxLost`), and the learner's code raising
(:class:`RemoteError`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from simlab.grading.messages import Message, sentence

__all__ = ["CellResult", "SandboxLost", "RemoteError"]


@dataclass(frozen=True)
class CellResult:
    """How one code cell went in the sandbox: ``ok``, ``error``, ``timeout`` or ``lost``;
    ``detail`` in English, ``said`` the same as a message (``detail`` may be given as one)."""

    index: int
    status: str
    detail: str = ""
    said: Message = field(default=sentence(""), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "said", sentence(self.detail))
        object.__setattr__(self, "detail", str(self.detail))


class SandboxLost(Exception):
    """The sandbox process is gone (killed on a timeout, exited, crashed, sent garbage):
    ``reason`` in English, ``said`` the same as a message (given as either)."""

    def __init__(self, reason: Message | str):
        super().__init__(str(reason))
        self.said = sentence(reason)
        self.reason = str(reason)


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
        return self.describe()

    def describe(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type
