"""The lines every lab notebook prints (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "tally": "Your predictions: {right} right out of {made} made ({left} not made yet).",
}

ZH = {
    "tally": "你的预测：做了 {made} 个，对了 {right} 个（还有 {left} 个没做）。",
}
