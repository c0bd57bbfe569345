"""Does the one reader of English templates (the command line's causes, the notebooks' printed
lines) read a text as each of its users needs: the most specific reading or the first template,
a number field only a number, a nested field only a text it reads itself?"""

from __future__ import annotations

from simlab.i18n.reading import best, filled, parts

TEMPLATES = [(parts("{path}: {why}"), "a"), (parts("{name}: tasks must be >= 0"), "b")]


def test_does_the_most_specific_reading_win_and_first_take_the_first_template():
    text = "s.json: tasks must be >= 0"
    assert best(TEMPLATES, text)[0] == "b"  # more literal text matched
    assert best(TEMPLATES, text, first=True)[0] == "a"


def test_does_a_nested_reader_refuse_a_value_and_count_what_it_read():
    def nested(name, value):
        if not name.startswith("why"):
            return value, 0
        return ("读到了", 10) if value == "tasks must be >= 0" else None

    payload, values, score = best(TEMPLATES[:1], "s.json: tasks must be >= 0", nested)
    assert (payload, values["why"], score) == ("a", "读到了", 2 + 10)
    assert best(TEMPLATES[:1], "s.json: nothing known", nested) is None


def test_is_a_number_field_only_a_number_the_longest_first():
    template = [(parts("{count_n}.{rest}"), "t")]
    assert best(template, "1.5.x")[1] == {"count_n": "1.5", "rest": "x"}
    assert best(template, "x.y") is None


def test_is_a_template_filled_with_its_values_as_text():
    assert filled("{path!r} 的 {share:.0%}", {"path": "'a'", "share": "5%"}) == "'a' 的 5%"
    assert best([(parts("no fields"), "t")], "no fields")[2] == len("no fields")
