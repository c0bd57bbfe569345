"""Has every sentence a Chinese notebook's code can show a learner its Chinese?

The nbval run of the Chinese notebooks, solutions and exercises (:mod:`tests.zh_reading`) reads
what a run with wrong predictions prints; an assert's message shows only when the learner's code
is wrong, so this reads the code instead: in every notebook that speaks Chinese (lab notebook,
solution or exercise), each reveal's ``why``, each picture's ``title``, each
``NotImplementedError`` hint (an exercise's stub), each ``AssertionError`` raised and each
assert's message (an f-string with a sample value in each hole) must come out of the catalogs
with no English prose left.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from simlab.grading.notebook import DEFAULT_HINT
from simlab.i18n.language import sentence
from simlab.i18n.prose import english_prose

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("notebooks", "solutions", "exercises")
SPEAKING = [
    p
    for folder in FOLDERS
    for p in sorted((ROOT / folder / "zh").glob("*.ipynb"))
    if 'set_language(\\"zh\\")' in p.read_text(encoding="utf-8")  # as the JSON writes it
]


def _sample(node: ast.AST) -> str | None:
    """The text a string expression gives, with ``7`` for each value an f-string puts in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _sample(node.left), _sample(node.right)
        return left + right if left is not None and right is not None else None
    return None


def shown(source: str) -> list[str]:
    """The sentences a code cell hands the kit to show (see the module's docstring)."""
    tree = ast.parse(TransformerManager().transform_cell(source))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            found.append(_sample(node.msg))
        elif isinstance(node, ast.Call):
            raised = ("NotImplementedError", "AssertionError")
            if getattr(node.func, "id", "") in raised and node.args:
                found.append(_sample(node.args[0]))
            found += [_sample(k.value) for k in node.keywords if k.arg in ("why", "title")]
    return [s for s in found if s]


def test_does_the_reader_find_the_sentences_of_a_cell():
    cell = (
        'assert x, f"epoch {e} is stale"\nreveal(p, a, why="Because " + "so.")\n'
        'raise AssertionError("a live lease was claimed again")'
    )
    assert shown(cell) == ["epoch 7 is stale", "Because so.", "a live lease was claimed again"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_does_every_chinese_notebook_speak_chinese(folder):
    every = sorted((ROOT / folder / "zh").glob("*.ipynb"))
    assert every and [p for p in SPEAKING if p.parent.parent.name == folder] == every


def test_has_the_hint_of_a_stub_without_one_its_chinese():
    assert not english_prose(sentence(DEFAULT_HINT, "zh"))


@pytest.mark.parametrize("path", SPEAKING, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_has_every_sentence_its_chinese(path):
    nb = nbformat.read(path, as_version=4)
    english = [
        said
        for cell in nb.cells
        if cell.cell_type == "code"
        for said in shown(cell.source)
        if english_prose(sentence(said, "zh"))
    ]
    assert not english, f"no Chinese for: {english}"


@pytest.mark.parametrize(
    ("line", "prose"),
    [
        ("Not quite: you predicted 2, but the run gave 3.", True),
        ("[未完成]「tasks needed at 0.9」：把 None 换成你的回答", False),  # an ID, not a sentence
        ("最终状态：{'result': \"B's answer\"}", False),  # a value's repr
        ("t=  5.9 w3      claim   ok   epoch 1", False),  # a row of names
        ("24 completed, 14 stopped for review", True),
        ("A 持有 epoch 1，B 持有 epoch 2", False),  # one term the glossary keeps
        ("结论：epoch 2 was granted to w2", True),  # English left inside Chinese
        ("重放：simlab simulate --seed 0 --effects all", False),  # a command line is code
        ("重放：simlab simulate, then look at all the rows", True),  # a command with no flag
    ],
)
def test_does_the_reading_test_tell_english_prose_from_names_and_values(line, prose):
    assert bool(english_prose(line)) is prose
