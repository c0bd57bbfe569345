"""Does a generated block of a page tell a stale block, and write it anew between its markers?"""

from __future__ import annotations

import pytest

from tests.generated import Block

PAGE = "intro\n<!-- t: generated from R -->\n{}<!-- t: end -->\noutro\n"


def test_is_a_stale_block_caught_and_written_anew(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE.format("old\n"))
    block = Block(page, "t", "R", lambda: "new $1 \\g<0>\n", "tests.x")
    with pytest.raises(AssertionError, match=r"run: python -m tests\.x"):
        block.check()
    block.write()
    assert page.read_text() == PAGE.format("new $1 \\g<0>\n")  # written as given, not a pattern
    block.check()


def test_does_a_page_without_its_markers_say_so(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("no markers\n")
    block = Block(page, "t", "R", lambda: "x\n", "tests.x")
    with pytest.raises(AssertionError, match="page.md lost its t markers"):
        block.write()
    assert page.read_text() == "no markers\n"
