"""Is every text of every rubric in Chinese, current, and reported like a notebook's cell when not?

The rubrics' stores (``simlab/i18n/zh/rubrics/<exercise>.json``, :mod:`simlab.i18n.rubric`) hold
the Chinese of each printed text of an exercise's rubric beside the sha256 of the English it was
made from; a quote's Chinese is the sentence of the Chinese exercise. ``simlab translate
--check`` names each text whose Chinese is missing, unfinished or stale, and each quote the
Chinese exercise does not hold; ``--todo --write`` adds them to the store. The tests that change
an English text swap the exercise's record in the registry for a copy, as an edit of
``simlab/grading/checks/`` would.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import shutil
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading.checks import EXERCISES
from simlab.i18n import rubric
from simlab.i18n.store import en_hash, load_store

ROOT = Path(__file__).resolve().parents[2]
IDS = list(EXERCISES)


@pytest.mark.parametrize("exercise", IDS)
def test_has_every_rubric_text_a_current_chinese_translation_and_every_quote_its_sentence(
    exercise,
):
    """The lint of the rubrics: no text without its current Chinese, no stray entry, and every
    Chinese quote stands in the Chinese exercise's markdown (white space folded)."""
    assert rubric.problems(ROOT, EXERCISES[exercise]) == []
    shown = rubric.localized(EXERCISES[exercise], "zh")
    assert shown.translated and shown.english == frozenset()


def test_does_every_printed_text_have_a_key_and_the_world_none():
    for exercise in EXERCISES.values():
        texts = rubric.texts(exercise)
        printed = [exercise.title]
        for q in exercise.questions:
            printed.append(q.title)
            for c in q.rubric:
                printed += [c.says, *c.text, *c.properties, *c.mistakes]
                assert not c.world or c.world not in texts.values(), (q.id, c.id)
        assert sorted(texts.values()) == sorted(printed), exercise.id
        assert sum(map(rubric.is_quote, texts)) == sum(
            len(c.text) for q in exercise.questions for c in q.rubric
        )


def test_is_each_entry_hashed_from_the_english_it_translates():
    exercise = EXERCISES["fencing"]
    store = load_store(ROOT / rubric.store_path("fencing"))
    english = rubric.texts(exercise)
    assert list(store.cells) == list(english)  # the store keeps the rubric's order
    for key, text in english.items():
        assert store.cells[key].en_hash == en_hash(text), key
    assert store.notebook == "rubric fencing"


def _register(monkeypatch, exercise) -> None:
    """``exercise`` in the registry in place of its own, as its checks' module serves it."""
    monkeypatch.setattr(
        importlib.import_module(f"simlab.grading.checks.{exercise.id}"), "EXERCISE", exercise
    )
    assert EXERCISES[exercise.id] is exercise


def _changed(monkeypatch, says: str):
    """The fencing exercise with its first criterion's ``says`` (and first quote) changed, in
    the registry the grader and ``simlab translate`` read."""
    exercise = EXERCISES["fencing"]
    q = exercise.questions[0]
    c = q.rubric[0]
    c2 = dataclasses.replace(c, says=says, text=("Both change the dict.", *c.text[1:]))
    q2 = dataclasses.replace(q, rubric=(c2, *q.rubric[1:]))
    changed = dataclasses.replace(exercise, questions=(q2, *exercise.questions[1:]))
    _register(monkeypatch, changed)
    return changed, f"{q.id}/{c.id}"


def test_does_a_changed_english_text_make_its_chinese_stale(monkeypatch):
    changed, at = _changed(monkeypatch, "A cancel fences.")
    said = rubric.problems(ROOT, changed)
    assert said == [
        f"rubric fencing text {at}/says: the English text changed since it was translated "
        "(en_hash differs)",
        f"rubric fencing text {at}/text-1: the English text changed since it was translated "
        "(en_hash differs)",
    ]
    shown = rubric.localized(changed, "zh")
    assert shown.english == {f"{at}/says", f"{at}/text-1"}
    first = shown.exercise.questions[0].rubric[0]
    assert first.says == "A cancel fences." and first.text[0] == "Both change the dict."
    question, criterion = at.split("/")
    assert shown.quote_in_english(question, criterion, 1)
    assert not shown.quote_in_english(question, criterion, 2)
    store = load_store(ROOT / rubric.store_path("fencing"))
    assert first.text[1] == store.cells[f"{at}/text-2"].zh


@pytest.fixture
def tree(tmp_path):
    """A copy of the notebooks, their translations, the exercises and the rubrics' stores."""
    for folder in ("notebooks", "solutions", "exercises", "i18n", "simlab/i18n/zh"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def _run(tree, capsys, *args):
    status = main(["translate", "--root", str(tree), *args])
    return status, capsys.readouterr()


def test_does_the_check_name_a_stale_rubric_text_and_todo_write_it(tree, capsys, monkeypatch):
    assert _run(tree, capsys, "--check")[0] == 0
    _, at = _changed(monkeypatch, "A cancel fences.")
    status, out = _run(tree, capsys, "--check")
    assert status == 1
    assert out.out.splitlines()[0] == (
        f"rubric fencing text {at}/says: the English text changed since it was translated "
        "(en_hash differs)"
    )
    status, out = _run(tree, capsys, "--check", "fencing")  # a rubric by its exercise's ID
    assert status == 1 and len(out.out.splitlines()) == 2, out.out
    status, out = _run(tree, capsys, "--todo", "fencing", "--write")
    assert status == 0
    assert f"== rubric fencing text {at}/says (changed)\n   A cancel fences.\n" in out.out
    path = tree / rubric.store_path("fencing")
    assert "wrote todo entries: simlab/i18n/zh/rubrics/fencing.json" in out.err
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["cells"][f"{at}/says"]
    assert entry["todo"] == "A cancel fences." and entry["en_hash"] == en_hash("A cancel fences.")
    assert entry["zh"].startswith("取消把 epoch 加一")  # the old Chinese, to edit
    status, out = _run(tree, capsys, "--check", "rubric fencing")
    assert status == 1 and "translation not finished" in out.out
    for key in (f"{at}/says", f"{at}/text-1"):  # the translator's work: fill zh, delete todo
        del data["cells"][key]["todo"]
    data["cells"][f"{at}/says"]["zh"] = "取消就是 fencing。"
    data["cells"][f"{at}/text-1"]["zh"] = "两者都就地修改传入的字典。"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert _run(tree, capsys, "--check", "fencing")[0] == 0


def test_does_todo_write_carry_a_moved_text_its_chinese_and_ask_only_for_the_new(
    tree, capsys, monkeypatch
):
    """A mistake inserted first shifts every later mistake's key: the check names each shifted
    key (its entry translates another text now), and ``--todo --write`` carries each shifted
    text its finished Chinese, so only the new mistake is left to translate."""
    exercise = EXERCISES["fencing"]
    q = exercise.questions[0]
    c = q.rubric[0]
    assert len(c.mistakes) >= 2
    c2 = dataclasses.replace(c, mistakes=("a new mistake", *c.mistakes))
    q2 = dataclasses.replace(q, rubric=(c2, *q.rubric[1:]))
    _register(monkeypatch, dataclasses.replace(exercise, questions=(q2, *exercise.questions[1:])))
    at = f"{q.id}/{c.id}"
    status, out = _run(tree, capsys, "--check", "fencing")
    assert status == 1 and len(out.out.splitlines()) == len(c.mistakes) + 1, out.out
    before = load_store(tree / rubric.store_path("fencing"))
    status, out = _run(tree, capsys, "--todo", "fencing", "--write")
    assert out.out.count("(moved)") == len(c.mistakes)
    assert f"== rubric fencing text {at}/mistake-1 (changed)\n   a new mistake\n" in out.out
    after = load_store(tree / rubric.store_path("fencing"))
    for n in range(1, len(c.mistakes) + 1):
        moved = after.cells[f"{at}/mistake-{n + 1}"]
        assert moved.todo is None and moved.zh == before.cells[f"{at}/mistake-{n}"].zh
    assert after.cells[f"{at}/mistake-1"].todo == "a new mistake"
    status, out = _run(tree, capsys, "--check", "fencing")
    assert status == 1 and out.out.splitlines() == [
        f"rubric fencing text {at}/mistake-1: translation not finished (fill 'zh', then delete "
        "'todo', in simlab/i18n/zh/rubrics/fencing.json)"
    ]


def test_does_the_check_name_a_quote_the_chinese_exercise_does_not_hold(tree, capsys):
    path = tree / rubric.store_path("events")
    data = json.loads(path.read_text(encoding="utf-8"))
    key = "narrowing/narrows/text-3"
    data["cells"][key]["zh"] = "两个授权必须属于同一租户。"  # not a sentence of the exercise
    data["cells"]["narrowing/narrows/gone"] = {"en_hash": "0", "zh": "多余。"}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    status, out = _run(tree, capsys, "--check", "events")
    assert status == 1
    assert out.out.splitlines() == [
        "simlab/i18n/zh/rubrics/events.json: text narrowing/narrows/gone is not in the rubric "
        "of events any more",
        f"rubric events text {key}: the quote is not in the markdown of "
        "exercises/zh/06_events_and_permissions.ipynb: '两个授权必须属于同一租户。'",
    ]


def test_does_a_rubric_without_a_store_say_so_and_print_in_english(tree, capsys, tmp_path):
    (tree / rubric.store_path("leases")).unlink()
    status, out = _run(tree, capsys, "--check")
    assert status == 1
    assert out.out.splitlines() == [
        "rubric leases: not translated yet (no simlab/i18n/zh/rubrics/leases.json; start with "
        "'simlab translate --todo leases --write')"
    ]
    shown = rubric.localized(EXERCISES["leases"], "zh", folder=tree / "simlab/i18n/zh/rubrics")
    assert not shown.translated and shown.exercise is EXERCISES["leases"]
    assert shown.english == frozenset(rubric.texts(EXERCISES["leases"]))


def test_does_a_quote_print_on_one_line_as_the_notebook_shows_it():
    assert rubric.one_line("a  b\n c ") == "a b c"  # English: white space folded, as before
    assert rubric.one_line("持久化的\nstep 必须") == "持久化的 step 必须"  # a gap Markdown shows
    assert rubric.one_line("`step`、\n`status`") == "`step`、`status`"  # none beside a mark
    assert rubric.one_line("写出\n这个") == "写出这个"  # none between two Chinese lines
    assert rubric.one_line("读取 `x`") == "读取 `x`"  # a space written on one line stays


def test_are_the_rubrics_stores_shipped_in_the_package():
    """``simlab grade --rubric --lang zh`` of an installed kit reads the stores from the package:
    the folder it reads is the checkout's, and the wheel's package data names it."""
    import simlab.i18n

    package = Path(simlab.i18n.__file__).resolve().parent
    for exercise in EXERCISES:
        assert (package / "zh" / "rubrics" / f"{exercise}.json").is_file()
        assert (ROOT / rubric.store_path(exercise)).resolve().parent == package / "zh" / "rubrics"
    assert '"simlab.i18n" = ["*/rubrics/*.json"]' in (ROOT / "pyproject.toml").read_text()
