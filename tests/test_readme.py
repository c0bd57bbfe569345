"""Does the README tell the truth? Its Python examples, and those of the site's pages
(docs/*.md, where the README's reference moved), run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import postgres_unavailable

README = Path(__file__).resolve().parent.parent / "README.md"
PAGES = sorted((README.parent / "docs").glob("*.md"))


def python_blocks(path: Path = README) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


def test_does_every_python_example_in_the_readme_run(capsys):
    blocks = python_blocks()
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    assert "completed" in capsys.readouterr().out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_does_every_python_example_of_the_site_run(page):
    for block in python_blocks(page):
        if "throwaway_postgres" not in block:
            exec(compile(block, str(page), "exec"), {"__name__": "readme"})


def test_do_the_site_pages_hold_the_readmes_former_examples():
    """The examples moved with the reference (ledger, simulator, checker, shrink, agent,
    release): none was dropped on the way."""
    assert sum(len(python_blocks(page)) for page in PAGES) >= 9


@pytest.mark.server
def test_does_the_postgres_example_in_the_readme_run(capsys):
    """The "Beyond one machine" example (docs/ledger.md) starts a real server, so it needs the
    binaries."""
    from simlab.testing.throwaway import find_postgres_bin

    page = README.parent / "docs" / "ledger.md"
    (block,) = [b for b in python_blocks(page) if "throwaway_postgres" in b]
    if find_postgres_bin() is None:
        postgres_unavailable("no PostgreSQL server binaries for the README's example")
    exec(compile(block, str(page), "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.split("\n")[:2] == [
        "Ledger completed 2",
        "PostgresLedger completed 2",
    ]


# --- the way in, and the words -------------------------------------------------------------

ROOT = README.parent
README_ZH = ROOT / "README.zh.md"
#: The notebooks a learner reads first, in order; their Words boxes define the kit's terms.
FIRST_NOTEBOOKS = (
    "01_fencing_tokens",
    "02_sqlite_ledger",
    "03_epoch_races",
    "04_crashes_and_side_effects",
)


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each ``## `` section."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_does_a_short_start_for_learners_follow_the_first_paragraph():
    heading, body = _sections(README.read_text())[0]
    assert heading.startswith("Start here"), "the first section after the intro is for learners"
    assert len(body.splitlines()) <= 40, "keep it short"
    for words in (
        "make lab",
        "notebooks/01_fencing_tokens.ipynb",
        "prediction",
        "reveal",
        "self_check",
        "simlab grade exercises/",
        "--rubric",
        "#glossary",
    ):
        assert words in body, words
    exercises = list(dict.fromkeys(re.findall(r"exercises/(\d\d_\w+\.ipynb)", body)))
    assert exercises == sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
    table = "\n".join(line for line in body.splitlines() if line.lstrip().startswith("| `"))
    notebooks = re.findall(r"(\d\d)_\.\.\.", table)
    assert notebooks == [f"{n:02d}" for n in range(1, 10)], "every notebook, in order"
    assert re.findall(r"exercises/(\d\d_\w+\.ipynb)", table) == exercises
    zh_heading, zh_body = _sections(README_ZH.read_text())[0]
    assert zh_heading.startswith("从这里开始")
    zh_exercises = re.findall(r"exercises/zh/(\d\d_\w+\.ipynb)", zh_body)
    assert list(dict.fromkeys(zh_exercises)) == exercises


def _code(path: Path) -> str:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def test_does_the_start_name_exactly_the_notebooks_whose_cells_need_widgets():
    """A cell that shows a widget (``.show()`` of a stepper or the dashboard) needs a live
    JupyterLab; the start section names those notebooks, and no other."""
    body = _sections(README.read_text())[0][1]
    sentence = re.split(r"\.\s", body[body.index("need a live JupyterLab") :])[0]
    named = set(re.findall(r"notebooks/(\d\d_\w+)\.ipynb", sentence))
    widgets = {
        p.stem
        for p in (ROOT / "notebooks").glob("*.ipynb")
        if re.search(r"(?<!plt)\.show\(\)", _code(p))
    }
    assert named == widgets


def _markdown(name: str) -> list[str]:
    import nbformat

    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "markdown"]


def _boxes(source: str) -> list[str]:
    """The Words boxes of one markdown cell: blockquotes that start with ``> **Words``."""
    boxes, current = [], None
    for line in source.splitlines():
        if line.startswith("> **Words"):
            current = [line]
            boxes.append(current)
        elif current is not None and line.startswith(">"):
            current.append(line)
        else:
            current = None
    return [" ".join(line.lstrip("> ") for line in box) for box in boxes]


def _box_terms() -> set[str]:
    terms = set()
    for name in FIRST_NOTEBOOKS:
        for source in _markdown(name):
            for box in _boxes(source):
                found = re.findall(r"\*\*([^*]+)\*\*", box)
                terms |= {t.lower() for t in found if not t.startswith("Words")}
    return terms


def _glossary(path: Path, heading: str) -> list[set[str]]:
    """The English terms of each glossary row (``ledger (task ledger)`` is ``ledger``)."""
    body = dict(_sections(path.read_text()))[heading]
    rows = [line.split("|")[1].strip() for line in body.splitlines() if line.startswith("| ")]
    return [
        {re.sub(r"\s*\(.*\)", "", t).strip().lower() for t in row.split(",")} for row in rows[1:]
    ]


def test_is_every_term_of_the_words_boxes_in_both_glossaries():
    terms = _box_terms()
    assert len(terms) >= 20
    for path, heading in ((README, "Glossary"), (README_ZH, "术语表")):
        known = set().union(*_glossary(path, heading))
        assert terms <= known, (path.name, sorted(terms - known))


def test_is_every_glossary_term_up_to_the_idempotency_ledger_defined_in_a_words_box():
    rows = _glossary(README, "Glossary")
    assert rows == _glossary(README_ZH, "术语表"), "the two glossaries list the same terms"
    last = next(i for i, row in enumerate(rows) if "idempotency ledger" in row)
    terms = _box_terms()
    missing = [sorted(row) for row in rows[: last + 1] if not row & terms]
    assert not missing, missing


def test_is_each_word_a_newcomer_tripped_on_defined_where_it_first_appears():
    for word in ("nemesis", "Jepsen", "visibility timeout", "at least once", "idempotency key"):
        first = next(
            source
            for name in FIRST_NOTEBOOKS
            for source in _markdown(name)
            if word.lower() in source.lower()
        )
        assert any(word.lower() in box.lower() for box in _boxes(first)), word


def test_do_the_notebooks_glossary_links_reach_a_glossary_heading():
    import nbformat

    assert "## Glossary" in README.read_text() and "## 术语表" in README_ZH.read_text()
    for folder, link in (
        ("notebooks", "../README.md#glossary"),
        ("notebooks/zh", "../../README.zh.md#术语表"),
    ):
        for name in FIRST_NOTEBOOKS:
            nb = nbformat.read(ROOT / folder / f"{name}.ipynb", as_version=4)
            text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
            assert f"]({link})" in text, (folder, name)


@pytest.mark.parametrize("name", ["README.md", "README.zh.md"])
def test_is_the_readme_a_front_page_that_starts_a_learner_and_links_into_the_site(name):
    """At most 300 lines; `make lab` and the first notebook within its first 40 lines; the
    instructors' start and a link to every guide and reference page of the site."""
    lines = (README.parent / name).read_text().splitlines()
    assert len(lines) <= 300, len(lines)
    start = "\n".join(lines[:40])
    assert "make lab" in start and "01_fencing_tokens.ipynb" in start
    text = "\n".join(lines)
    assert "make demo" in text and "make test" in text
    for page in ("learners", "instructors", "ledger", "simulator", "benchmarks", "api"):
        assert f"](docs/{page}.md" in text, page


#: Words of notebooks 07 and 08 a newcomer met undefined, and their Chinese terms.
LATER_WORDS = {
    "tenant": "租户",
    "graph step": "图步骤",
    "liveness rule": "活性规则",
    "p95": "p95",
    "slice": "切片",
}


@pytest.mark.parametrize("word", sorted(LATER_WORDS))
def test_is_each_later_word_defined_where_it_first_appears_and_in_both_glossaries(word):
    """The first markdown cell of the learning path that uses the word (in English, and the same
    cell in Chinese) writes it in bold, the way a definition does; both glossaries list it."""
    import nbformat

    from tests.test_notebooks import LEARNING_PATH

    first = next(
        (name, i)
        for name in LEARNING_PATH
        for i, cell in enumerate(nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", 4).cells)
        if cell.cell_type == "markdown" and re.search(rf"\b{word}", cell.source, re.I)
    )
    name, i = first
    english = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", 4).cells[i].source
    chinese = nbformat.read(ROOT / "notebooks" / "zh" / f"{name}.ipynb", 4).cells[i].source
    assert re.search(rf"\*\*{word}s?\*\*", english, re.I), (name, i)
    assert re.search(rf"\*\*\s?{LATER_WORDS[word]}\s?\*\*", chinese), (name, i)
    for path, heading in ((README, "Glossary"), (README_ZH, "术语表")):
        assert any(word in row for row in _glossary(path, heading)), (path.name, word)
