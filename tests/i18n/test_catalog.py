"""Does a catalog's TOML file give its module the ``EN`` and ``ZH`` dicts, and is a broken one
refused with its file and ID named?"""

from __future__ import annotations

import pytest

from simlab.i18n.catalog import CatalogError, tables


def _catalog(tmp_path, text: str) -> str:
    (tmp_path / "words.toml").write_text(text, encoding="utf-8")
    return str(tmp_path / "words.py")


def test_are_both_languages_read_in_the_files_order(tmp_path):
    module = _catalog(
        tmp_path,
        "# a group\n"
        'b.en = "second {n}"\n'
        'b.zh = "第二个 {n}"\n'
        'a.en = """\\\n    wrapped \\\n    line"""\n'
        'a.zh = "一行"\n'
        'only_en.en = "not translated yet"\n',
    )
    en, zh = tables(module)
    assert list(en.items()) == [
        ("b", "second {n}"),
        ("a", "wrapped line"),
        ("only_en", "not translated yet"),
    ]
    assert zh == {"b": "第二个 {n}", "a": "一行"}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('a.fr = "bonjour"\n', "a.fr"),
        ("a.en = 3\n", "a.en"),
        ('a = "no language"\n', "'a'"),
        ("[a]\n", "'a'"),
        ('a.en = "unterminated\n', "words.toml"),
    ],
)
def test_is_a_broken_catalog_refused_naming_where(tmp_path, text, named):
    with pytest.raises(CatalogError, match=named.replace(".", r"\.")):
        tables(_catalog(tmp_path, text))
