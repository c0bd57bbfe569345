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
