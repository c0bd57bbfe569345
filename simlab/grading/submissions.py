"""Which files are submissions: the regular files inside the folders given, links never followed.

:func:`find_notebooks` expands the paths an instructor gives into the notebooks to grade;
:func:`refusal_message` says why one of them is not graded at all (a symbolic link, a file reached
through one, anything but a regular file, or the same file as another submission). Nothing here
opens a submission.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from simlab.grading.messages import Message, message, sentence
from simlab.grading.text import quoted_path

__all__ = ["find_notebooks", "refusal_message", "same_files", "unreadable"]


def find_notebooks(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders into the submissions to grade, in order: folders recursively
    (sorted, checkpoint copies skipped), never following a symbolic link. A link met on the
    way (to a file or a folder, as a path given or inside a folder), a non-regular file, a
    file that is not a notebook, and the same file under another spelling are listed too, so
    that :func:`refusal_message` refuses each with one line: no path is dropped without one.
    A path given twice as the very same path is listed once. A path that does not exist raises
    ``FileNotFoundError``."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        try:
            info = path.lstat()
        except FileNotFoundError:
            raise FileNotFoundError(str(path)) from None
        except OSError:  # unreadable: listed, and refused with the reason
            found.append(path)
            continue
        if stat.S_ISDIR(info.st_mode):
            found.extend(_walk(path))
        else:
            found.append(path)
    # The same file under another spelling stays listed: it is refused as a duplicate.
    return list({str(p): p for p in found}.values())


def _link_on(path: Path) -> Path | None:
    """The first component of ``path`` (as written) that is a symbolic link, or None: every
    component is checked, one by one (a relative path from the working folder down, an
    absolute one from the root)."""
    path = Path(path)
    for part in reversed([path, *path.parents]):
        if str(part) in ("", ".", "/", path.anchor):
            continue
        if os.path.islink(part):
            return part
    return None


def _walk(folder: Path) -> list[Path]:
    """Every file below ``folder`` (a file that is not a notebook is listed so that it is
    refused with its line) and every link to a folder, sorted, without following links or
    entering ``.ipynb_checkpoints`` (Jupyter's own copies)."""
    out = []
    for base, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
        here = Path(base)
        for name in list(dirs):
            if os.path.islink(here / name):  # a link to a folder: listed, never entered
                dirs.remove(name)
                out.append(here / name)
        out.extend(here / name for name in files)  # not a notebook: listed, to say so
    return sorted(out)


def refusal_message(
    path: str | Path, others: dict[tuple[int, int], list[str]] | None = None
) -> Message | None:
    """Why ``path`` is not a submission to grade (one line), or None: a symbolic link (never
    followed: it could point at the solutions or at a classmate's notebook), a file with a
    link anywhere on its path (``class/*/hw/ex.ipynb`` expands through a student's link),
    anything but a regular file, a file not named ``*.ipynb``, a file that is the very same
    file as another submission of the batch under another name (``others``: (device, inode)
    -> paths; a hard link: neither is graded), or the same file given again under another
    spelling (a duplicate: the first is graded)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return unreadable(exc)
    if stat.S_ISLNK(info.st_mode):
        return message("grader.link")
    if _link_on(Path(path)) is not None:  # a file given by a path through a student's link
        return message("grader.linked_folder")
    if not stat.S_ISREG(info.st_mode):
        return message("grader.not_regular")
    if not str(path).endswith(".ipynb"):
        return message("grader.not_notebook")
    same = [p for p in (others or {}).get((info.st_dev, info.st_ino), []) if p != str(path)]
    here = os.path.realpath(path)
    given_twice = [p for p in same if os.path.realpath(p) == here]
    twins = [p for p in same if os.path.realpath(p) != here]
    if twins:
        return message("grader.hard_link", other=quoted_path(twins[0]))
    everyone = (others or {}).get((info.st_dev, info.st_ino), [])
    if given_twice and everyone.index(str(path)) > everyone.index(given_twice[0]):
        return message("grader.duplicate", other=quoted_path(given_twice[0]))
    return None


def unreadable(exc: OSError) -> Message:
    """A file that cannot be read, as the system says why (its words, as they are)."""
    return message("grader.cannot_read", why=sentence(exc.strerror or type(exc).__name__))


def same_files(paths: Sequence[Path]) -> dict[tuple[int, int], list[str]]:
    """(device, inode) -> the regular files of ``paths`` (not reached through a link) that are
    that file, where more than one path is: hard links, as :func:`find_notebooks` already
    listed each file once."""
    files: dict[tuple[int, int], list[str]] = {}
    for p in paths:
        if _link_on(Path(p)) is not None:  # refused anyway: never anyone's twin
            continue
        try:
            info = os.lstat(p)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            files.setdefault((info.st_dev, info.st_ino), []).append(str(p))
    return {k: v for k, v in files.items() if len(v) > 1}
