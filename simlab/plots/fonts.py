"""Chinese text in pictures: matplotlib falls back to a CJK font for the glyphs its default
font lacks.

:func:`use_cjk_fallback` (called when :mod:`simlab.plots` is imported) puts the first installed
Simplified Chinese font (Noto Sans CJK SC from Debian's ``fonts-noto-cjk``, or another
``* CJK SC``/``SC`` sans font) after matplotlib's default sans-serif font, so Latin text is drawn
exactly as before and only the glyphs DejaVu Sans lacks come from the CJK font. Where none is
installed, :func:`cjk_font` is None and :func:`require_cjk_font` says so in one line (a
picture with a Chinese title would otherwise show empty boxes).

:func:`translate_drawn_text` (also called on import) makes every text matplotlib draws, the
titles, axis labels and legend entries a notebook's own code writes included, go through the
notebooks' sentence catalogs (:func:`simlab.i18n.language.sentence`): in the language the
notebook set, a sentence a catalog knows is drawn translated; in English, and for any text no
catalog knows (numbers, names), it is drawn as written.
"""

from __future__ import annotations

import sys
from functools import cache

from matplotlib import font_manager, rcParams
from matplotlib.text import Text

from simlab.i18n.language import sentence

__all__ = ["cjk_font", "use_cjk_fallback", "require_cjk_font", "translate_drawn_text", "MISSING"]

#: What a learner is told when no CJK font is installed.
MISSING = (
    "simlab: no CJK font is installed, so Chinese text in pictures shows as empty boxes; "
    "install one (Debian: apt-get install fonts-noto-cjk)"
)
#: Families tried first, in order.
_PREFERRED = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Noto Sans SC")


@cache
def cjk_font() -> str | None:
    """The family name of an installed Simplified Chinese sans font, or None."""
    names = {f.name for f in font_manager.fontManager.ttflist}
    for name in _PREFERRED:
        if name in names:
            return name
    found = sorted(n for n in names if n.endswith(" SC") and "Mono" not in n)
    return found[0] if found else None


def use_cjk_fallback() -> str | None:
    """Draw text in the default sans-serif font with the CJK font as its fallback (once);
    return the CJK font's name or None. Matplotlib falls back glyph by glyph only between
    the families ``font.family`` names, so both are named there."""
    font = cjk_font()
    if font is None or rcParams["font.family"] != ["sans-serif"]:
        return font  # none installed, or the family was chosen by someone else: left alone
    first = font_manager.findfont(font_manager.FontProperties(family=["sans-serif"]))
    latin = font_manager.FontProperties(fname=first).get_name()
    rcParams["font.family"] = [latin, font]
    return font


def require_cjk_font() -> bool:
    """True when Chinese text can be drawn; else print :data:`MISSING` once on stderr."""
    if cjk_font() is not None:
        return True
    _say_missing()
    return False


@cache
def _say_missing() -> None:
    print(MISSING, file=sys.stderr)


def translate_drawn_text() -> None:
    """From now on, every :class:`matplotlib.text.Text` holds its text through :func:`sentence`
    (once per process). Every text a figure draws is set through ``Text.set_text``, so a title,
    a label or a legend entry written by a notebook's own matplotlib calls is translated as the
    kit's own pictures are: the Chinese notebooks run the English code byte for byte."""
    if getattr(Text.set_text, "_through_sentence", False):
        return
    english_set_text = Text.set_text

    def set_text(self: Text, s: object) -> None:
        english_set_text(self, sentence(s) if isinstance(s, str) else s)

    set_text._through_sentence = True  # type: ignore[attr-defined]
    Text.set_text = set_text  # type: ignore[method-assign]
