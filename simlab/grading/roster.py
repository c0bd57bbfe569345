"""The class's roster: who each submission belongs to, by student ID, never by folder layout.

A roster is a CSV file in one of two forms, told apart by their columns:

* the kit's own: ``notebook, Student, ID`` (optional ``SIS User ID``, ``SIS Login ID``,
  ``Section``): one row per submission, naming its key as ``--json`` prints it (its path as
  given); a student with several notebooks has several rows with the same ``ID``;
* a gradebook CSV exported from Canvas, as it is: its ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID`` and ``Section`` columns (its ``Points Possible`` row and its assignment
  columns are ignored): one row per student. A submission is that student's when one folder of
  its path, or its file name without ``.ipynb``, is the student's SIS login ID (``class/jdoe/
  ex.ipynb`` and ``class/jdoe.ipynb`` are jdoe's; nbgrader's ``submitted/jdoe/...`` too).

:meth:`Roster.owner` says whose a submission is: one student, or a one-line reason that it is
no one's (no student matches it, or two do). The roster's students keep the file's order.

Either form may have a ``deadline`` column: a student's own deadline (an extension), ISO 8601
with its zone (:func:`simlab.grading.lateness.parse_time`); an empty cell keeps the class's.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from simlab.grading.messages import Message, message

__all__ = ["Roster", "RosterError", "Student", "read_roster", "FIXED"]

#: A student's columns, in Canvas's order.
FIXED = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


class RosterError(ValueError):
    """The roster is unreadable or contradicts itself (one line)."""


@dataclass
class Student:
    """One student of the roster: Canvas's columns and the submissions the roster names."""

    id: str
    name: str
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    notebooks: list[str] = field(default_factory=list)
    #: The student's own deadline (the roster's optional ``deadline`` column), or None.
    deadline: datetime | None = None

    def columns(self) -> list[str]:
        """The student's cells of a Canvas CSV, in :data:`FIXED`'s order."""
        return [self.name, self.id, self.sis_user_id, self.sis_login_id, self.section]

    def __str__(self) -> str:
        return f"{self.id} ({self.name})" if self.name else self.id


@dataclass
class Roster:
    """The students of the class (:func:`read_roster`)."""

    path: str
    students: list[Student]
    by_notebook: dict[str, Student] = field(default_factory=dict)
    by_login: dict[str, Student] = field(default_factory=dict)

    def owner(self, key: str) -> tuple[Student | None, Message | None]:
        """Whose submission ``key`` is: (the student, None), or (None, why it is no one's):
        a notebook the roster names is its student's; otherwise the students whose SIS login ID
        is a folder of its path or its file name without ``.ipynb``; none or two: no one's."""
        named = self.by_notebook.get(key) or self.by_notebook.get(_normal(key))
        if named is not None:
            return named, None
        path = PurePosixPath(key.replace("\\", "/"))
        names = [*path.parts[:-1], path.stem if path.suffix == ".ipynb" else path.name]
        found: list[Student] = []
        for name in names:
            s = self.by_login.get(name)
            if s is not None and s not in found:
                found.append(s)
        if len(found) == 1:
            return found[0], None
        if not found:
            return None, message("grader.unknown_student")
        return None, message("grader.two_students", first=str(found[0]), second=str(found[1]))


def _normal(key: str) -> str:
    return str(PurePosixPath(key.replace("\\", "/")))


def read_roster(path: str | Path) -> Roster:
    """Read a roster in either form (module doc). Raises :class:`RosterError`: unreadable or
    not UTF-8, no ``Student`` and ``ID`` columns, neither ``notebook`` nor ``SIS Login ID``, a
    student ID or a SIS login ID given to two students, a notebook named twice, a row without
    an ID, no student at all."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            columns = set(reader.fieldnames or ())
    except UnicodeDecodeError:
        raise RosterError(
            f"cannot read the roster {path}: it is not UTF-8 text (save it as CSV UTF-8)"
        ) from None
    except (OSError, csv.Error) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise RosterError(f"cannot read the roster {path}: {why}") from None
    if not {"Student", "ID"} <= columns or not ({"notebook", "SIS Login ID"} & columns):
        raise RosterError(
            f"the roster {path} needs the columns Student and ID, and notebook (one row per "
            "submission) or SIS Login ID (Canvas's gradebook export)"
        )
    roster = Roster(str(path), [])
    by_id: dict[str, Student] = {}
    for n, row in enumerate(rows, start=2):
        name = (row.get("Student") or "").strip()
        sid = (row.get("ID") or "").strip()
        if name.startswith("Points Possible") or (not sid and not name):
            continue  # Canvas's points row, or a blank line
        if not sid:
            raise RosterError(f"the roster {path}, line {n}: {name!r} has no ID")
        student = by_id.get(sid)
        cells = [(row.get(c) or "").strip() for c in FIXED[2:]]
        if student is None:
            student = by_id[sid] = Student(sid, name, *cells)
            roster.students.append(student)
        elif "notebook" not in columns or (student.name, *student.columns()[2:]) != (name, *cells):
            raise RosterError(f"the roster {path} gives the ID {sid!r} to two students")
        login = student.sis_login_id
        if login and roster.by_login.setdefault(login, student) is not student:
            raise RosterError(f"the roster {path} gives the SIS login ID {login!r} twice")
        _deadline(student, (row.get("deadline") or "").strip(), path, n)
        key = (row.get("notebook") or "").strip()
        if "notebook" in columns:
            if not key or key in roster.by_notebook:
                raise RosterError(f"the roster {path} names {key or 'an empty notebook'!r} twice")
            roster.by_notebook[key] = student
            roster.by_notebook.setdefault(_normal(key), student)
            student.notebooks.append(key)
    if not roster.students:
        raise RosterError(f"the roster {path} lists no students")
    return roster


def _deadline(student: Student, text: str, path, line: int) -> None:
    """Give ``student`` the deadline of a ``deadline`` cell (ISO 8601 with its zone); a cell
    that is not one, or that contradicts another row of the same student, is a RosterError."""
    if not text:
        return
    from simlab.grading.lateness import LateError, parse_time

    try:
        when = parse_time(text)
    except LateError as exc:
        raise RosterError(f"the roster {path}, line {line}: deadline {exc}") from None
    if student.deadline is not None and student.deadline != when:
        raise RosterError(f"the roster {path}, line {line}: {student.id!r} has two deadlines")
    student.deadline = when


def assign(keys: Sequence[str], roster: Roster | None) -> list[tuple[str | None, Message | None]]:
    """Each key's student ID and, when it is no one's, the line why: without a roster, a
    submission is known by its key (its path as given)."""
    if roster is None:
        return [(k, None) for k in keys]
    out: list[tuple[str | None, Message | None]] = []
    for k in keys:
        student, why = roster.owner(k)
        out.append((student.id if student else None, why))
    return out
