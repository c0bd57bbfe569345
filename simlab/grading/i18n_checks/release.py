"""Chinese for the hidden checks' sentences of simlab/grading/checks/release.py.

Exercise 05: the injection rule and the breaker threshold.
"""

from __future__ import annotations

__all__ = ["PATTERNS"]

PATTERNS: tuple[tuple, ...] = (
    (
        r"noise_peak\((?P<c>.+), a hidden seed\) gave (?P<v>.+), not the kit's peak",
        "noise_peak({c}, 隐藏的种子) 得到 {v},与工具包的峰值不同",
    ),
    (
        r"choose_threshold\(\) on hidden seeds gave (?P<v>.+), not the kit's threshold",
        "在隐藏的种子上 choose_threshold() 得到 {v},与工具包的阈值不同",
    ),
    (
        r"trip_rate\((?P<c>.+), (?P<t>[\d.]+), hidden seeds\) gave (?P<v>.+), not the kit's rate",
        "trip_rate({c}, {t}, 隐藏的种子) 得到 {v},与工具包的比率不同",
    ),
    (
        r"(?P<what>.+): injection_rule\(\) said (?P<a>\w+), expected (?P<b>\w+)",
        "{what}:injection_rule() 判为 {a},应为 {b}",
    ),
)
