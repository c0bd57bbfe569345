"""nbgrader's course layout: whose each notebook is, and when it was handed in.

``nbgrader collect`` copies each student's latest submission of an assignment to
``COURSE/submitted/<student>/<assignment>/`` (nbgrader's default ``directory_structure``,
``{nbgrader_step}/{student_id}/{assignment_id}``) and writes beside the notebooks a
``timestamp.txt``: the submission's time as ``nbgrader submit`` wrote it, with the exchange's
``timestamp_format``, by default ``%Y-%m-%d %H:%M:%S.%f %Z`` in the ``timezone`` it is
configured with (UTC by default), so ``2026-12-01 23:59:59.000000 UTC``.

:func:`read_course` lists an assignment's submissions: the ``*.ipynb`` files directly in each
student's assignment folder (the student ID is the folder's name), each with its time read by
:func:`parse_timestamp` as nbgrader's own ``parse_utc`` reads it. A student's folder or
assignment folder that is a symbolic link is listed as that link (the grader refuses it with
one line, never following it); a student with no folder for the assignment, or one without a
notebook in it, is listed as handing in nothing; a missing or unreadable ``timestamp.txt`` is
that submission's one line (it has no time, so it is never penalized).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from simlab.grading.messages import Message, message, sentence

__all__ = ["Course", "CourseError", "Handed", "parse_timestamp", "read_course", "TIMESTAMP"]

#: The file ``nbgrader collect`` leaves beside a submission's notebooks.
TIMESTAMP = "timestamp.txt"
#: The folder of collected submissions (nbgrader's ``submitted_directory``).
SUBMITTED = "submitted"


class CourseError(ValueError):
    """The course folder or the assignment cannot be read as nbgrader's layout (one line)."""


@dataclass(frozen=True)
class Handed:
    """One notebook a student handed in: its path (the submission's key), the student's ID,
    the time it was handed in (None when unknown) and, then, the one line why."""

    path: str
    student: str
    submitted: datetime | None
    note: Message | None = None


@dataclass
class Course:
    """One assignment of an nbgrader course: every student folder of ``submitted/`` (sorted),
    the notebooks handed in, and the students who handed in nothing for it."""

    root: str
    assignment: str
    students: list[str] = field(default_factory=list)
    handed: list[Handed] = field(default_factory=list)
    nothing: list[str] = field(default_factory=list)

    @property
    def paths(self) -> list[str]:
        return [h.path for h in self.handed]


_NUMERIC = re.compile(r"([+-])(\d{2}):?(\d{2})")


def parse_timestamp(text: str) -> datetime:
    """A ``timestamp.txt`` as nbgrader's ``parse_utc`` reads it, as an aware datetime: three
    words (date, time, zone) take the zone from the third, a zone name (``UTC``, ``GMT``, an
    IANA name such as ``Asia/Shanghai`` or one of its fixed zones such as ``EST``) or an offset
    (``+0800``, read as hours and minutes, where nbgrader would read seconds); anything else is
    read as ISO 8601; a time without a zone is UTC, as nbgrader takes it. Raises ``ValueError``
    for a zone it cannot tell (``CST`` names several zones, and nbgrader would take it as UTC)
    or a malformed time."""
    words = text.split()
    if len(words) == 3:
        zone = _zone(words[2])
        naive = datetime.fromisoformat(f"{words[0]} {words[1]}")
        if naive.tzinfo is not None:
            raise ValueError(f"two zones in '{text}'")
        return naive.replace(tzinfo=zone)
    if len(words) not in (1, 2):
        raise ValueError(f"not a time: '{text}'")
    when = datetime.fromisoformat(" ".join(words))
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _zone(name: str):
    if name.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = _NUMERIC.fullmatch(name)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        return timezone(sign * timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)  # an IANA name, or one of its fixed zones (EST, CET, HST)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    raise ValueError(f"time zone '{name}' is not UTC, an offset or a zone name")


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def read_course(course_dir: str | Path, assignment: str) -> Course:
    """The submissions of ``assignment`` in the nbgrader course at ``course_dir`` (module doc).
    Raises :class:`CourseError`: no ``submitted/`` folder in it, or an assignment name that
    is not a plain folder name."""
    if not assignment or assignment in (".", "..") or "/" in assignment or "\\" in assignment:
        raise CourseError(f"--assignment {assignment!r}: give the assignment's folder name")
    root = Path(course_dir)
    submitted = root / SUBMITTED
    if not _is_dir(submitted):
        raise CourseError(
            f"{course_dir} is not an nbgrader course: it has no folder {SUBMITTED}/ "
            "(run nbgrader collect first)"
        )
    course = Course(str(root), assignment)
    try:
        names = sorted(os.listdir(submitted))
    except OSError as exc:
        raise CourseError(f"cannot read {submitted}: {exc.strerror}") from None
    for name in names:
        student_dir = submitted / name
        if not (_is_dir(student_dir) or student_dir.is_symlink()):
            continue  # a stray file beside the students' folders is nobody's folder
        course.students.append(name)
        folder = student_dir / assignment
        if student_dir.is_symlink() or folder.is_symlink():
            # listed as the link itself, refused by the grader in one line, never followed
            link = student_dir if student_dir.is_symlink() else folder
            course.handed.append(Handed(str(link), name, None, None))
            continue
        if not _is_dir(folder):
            course.nothing.append(name)
            continue
        try:
            files = sorted(os.listdir(folder))
        except OSError:  # unreadable: counted as handing in nothing, which a line says
            course.nothing.append(name)
            continue
        notebooks = [f for f in files if f.endswith(".ipynb")]
        if not notebooks:
            course.nothing.append(name)
            continue
        when, note = _handed_at(folder / TIMESTAMP)
        for f in notebooks:
            course.handed.append(Handed(str(folder / f), name, when, note))
    return course


def _handed_at(path: Path) -> tuple[datetime | None, Message | None]:
    """The time in a ``timestamp.txt`` and None, or None and the one line why there is none
    (a link in its place is not followed)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None, message("grader.no_timestamp", file=TIMESTAMP)
    except OSError as exc:
        return None, message("grader.bad_timestamp", file=TIMESTAMP, why=sentence(str(exc)))
    if not stat.S_ISREG(info.st_mode) or info.st_size > 4096:
        return None, message("grader.bad_timestamp", file=TIMESTAMP, why=sentence("not a time"))
    try:
        text = path.read_text(encoding="utf-8").strip()
        return parse_timestamp(text), None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, message("grader.bad_timestamp", file=TIMESTAMP, why=sentence(str(exc)))
