"""Does a Chinese title render with real glyphs (the CJK fallback font), and Latin text as
before?"""

from __future__ import annotations

import warnings

import pytest
from matplotlib.figure import Figure

import simlab.plots  # noqa: F401 - importing the pictures sets the fallback
from simlab.plots.fonts import MISSING, cjk_font, require_cjk_font


def _drawn(title: str) -> list[str]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(3, 1))
    FigureCanvasAgg(fig)  # a canvas that really draws (a bare Figure's draws nothing)
    ax = fig.subplots()
    ax.set_title(title)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.canvas.draw()
    return [str(w.message) for w in caught if "missing from" in str(w.message)]


def test_does_a_chinese_title_render_without_missing_glyphs():
    if cjk_font() is None:
        if __import__("os").environ.get("CI") == "true":
            pytest.fail("CI installs fonts-noto-cjk: no CJK font was found")
        pytest.skip(MISSING)
    assert _drawn("租约过期之后的陈旧提交（epoch 2）") == []
    assert require_cjk_font() is True


def test_does_latin_text_keep_the_default_font():
    from matplotlib import rcParams

    assert rcParams["font.family"][0] == "DejaVu Sans"
    assert _drawn("stale commit after the lease ran out") == []


def _own_picture_texts() -> set[str]:
    """Every literal text a notebook's, a solution's or an exercise's own matplotlib calls write
    (a title, an axis label, a legend entry), read from the English code."""
    import ast
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    calls = {"set_title", "set_xlabel", "set_ylabel", "suptitle"}
    found = set()
    for folder in ("notebooks", "solutions", "exercises"):
        for path in sorted((root / folder).glob("*.ipynb")):
            cells = json.loads(path.read_text())["cells"]
            code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
            if not any("import matplotlib" in source for source in code):
                continue
            for source in code:
                lines = [ln for ln in source.splitlines() if not ln.startswith(("%", "!"))]
                for node in ast.walk(ast.parse("\n".join(lines))):
                    if not isinstance(node, ast.Call):
                        continue
                    texts = [k.value for k in node.keywords if k.arg == "label"]
                    name = getattr(node.func, "attr", None)
                    if name in calls and node.args:
                        texts.append(node.args[0])
                    found |= {t.value for t in texts if isinstance(t, ast.Constant)}
    return {t for t in found if isinstance(t, str) and " " in t}


def test_does_every_text_a_notebook_draws_itself_have_a_chinese_twin():
    # The Chinese notebooks run the English code: its pictures' own texts are translated as
    # they are drawn, so each must be a sentence the catalogs know.
    from simlab.i18n.language import sentence

    texts = _own_picture_texts()
    assert "duplicate e-mails per 100 tasks" in texts  # the reader sees the notebooks' calls
    untranslated = sorted(t for t in texts if sentence(t, "zh") == t)
    assert untranslated == []


def test_is_a_notebooks_own_picture_drawn_in_the_language_it_set():
    from simlab.i18n.language import language, set_language

    fig = Figure()
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="with keys")
    ax.set_title("Mean wait per replication (8 seeds per size)")
    assert ax.get_title() == "Mean wait per replication (8 seeds per size)"
    before = language()
    set_language("zh")
    try:
        ax.plot([0, 1], [1, 0], label="without keys")
        ax.set_title("Mean wait per replication (8 seeds per size)")
        ax.set_ylabel("a text no catalog knows")
        legend = ax.legend()
        assert ax.get_title() == "每次重复实验的平均等待（每个规模 8 个种子）"
        assert [t.get_text() for t in legend.get_texts()] == ["有幂等键", "没有幂等键"]
        assert ax.get_ylabel() == "a text no catalog knows"
    finally:
        set_language(before)
