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
from simlab.grading.text import shown_path

__all__ = ["find_notebooks", "refusal_message", "same_files", "unreadable"]


def find_notebooks(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders into the submissions to grade, in order: folders recursively
    (sorted, checkpoint copies skipped), never following a symbolic link. A link met on the
    way (to a file or a folder, as a path given or inside a folder), and a non-regular file
    named ``*.ipynb``, is listed too, so that :func:`grade_notebook` refuses it with one line;
    a path given twice is listed once. A path that does not exist raises
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
    seen: set[str] = set()
    unique = []
    for p in found:
        key = os.path.abspath(p) if _through_link(p) else os.path.realpath(p)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def _through_link(path: Path) -> bool:
    """Is ``path``, or the folder holding it, a symbolic link (so :func:`refusal_message`
    refuses it, and it is never taken for the file it points at)?"""
    return os.path.islink(path) or os.path.islink(path.parent)


def _walk(folder: Path) -> list[Path]:
    """Every ``*.ipynb`` entry below ``folder`` and every link to a folder, sorted, without
    following links or entering ``.ipynb_checkpoints``."""
    out = []
    for base, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
        here = Path(base)
        for name in list(dirs):
            if os.path.islink(here / name):  # a link to a folder: listed, never entered
                dirs.remove(name)
                out.append(here / name)
        out.extend(here / name for name in files if name.endswith(".ipynb"))
    return sorted(out)


def refusal_message(
    path: str | Path, others: dict[tuple[int, int], list[str]] | None = None
) -> Message | None:
    """Why ``path`` is not a submission to grade (one line), or None: a symbolic link (never
    followed: it could point at the solutions or at a classmate's notebook), a file whose
    folder is one (``class/*/ex.ipynb`` expands through a student's link), anything but a
    regular file, or a file that is the very same file as another submission of the batch
    (``others``: (device, inode) -> paths; a hard link)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return unreadable(exc)
    if stat.S_ISLNK(info.st_mode):
        return message("grader.link")
    if os.path.islink(Path(path).parent):  # a file given by a path through a student's link
        return message("grader.linked_folder")
    if not stat.S_ISREG(info.st_mode):
        return message("grader.not_regular")
    twins = [p for p in (others or {}).get((info.st_dev, info.st_ino), []) if p != str(path)]
    if twins:
        return message("grader.hard_link", other=shown_path(twins[0]))
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
        if _through_link(Path(p)):  # refused anyway: never anyone's twin
            continue
        try:
            info = os.lstat(p)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            files.setdefault((info.st_dev, info.st_ino), []).append(str(p))
    return {k: v for k, v in files.items() if len(v) > 1}


# ------------------------------------------------------------------------ pass 2: hidden ------
