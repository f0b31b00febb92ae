"""Every layout vector of tests/test_vectors.py (RULES.md §6) through the `golfsim score`
command, with its options given as --set, exactly as a user would type them."""

import json

import pytest
from click.testing import CliRunner

from simulator.cli import cli

from test_vectors import FOUR_CARD_VECTORS, LAYOUT_VECTORS, NINE_VECTORS


def _set_args(options: dict) -> list[str]:
    args = []
    for key, value in options.items():
        text = "none" if value is None else str(value).lower() if isinstance(value, bool) \
            else str(value)
        args += ["--set", f"{key}={text}"]
    return args


@pytest.mark.parametrize("vid, options, layout, expected", LAYOUT_VECTORS,
                         ids=[v[0] for v in LAYOUT_VECTORS])
def test_vector_through_golfsim_score(vid, options, layout, expected):
    options = dict(options)
    if len(set(layout.replace("/", " ").split())) < len(layout.replace("/", " ").split()):
        options.setdefault("decks", 2)  # repeated cards need a second deck
    result = CliRunner().invoke(cli, ["score", "--json", *_set_args(options), layout])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == expected


@pytest.mark.parametrize("vid, options, layout, expected", FOUR_CARD_VECTORS,
                         ids=[v[0] for v in FOUR_CARD_VECTORS])
def test_four_card_vector_through_golfsim_score(vid, options, layout, expected):
    result = CliRunner().invoke(cli, ["score", "--json", "--preset", "four_card",
                                      *_set_args(options), layout])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == expected


@pytest.mark.parametrize("vid, options, layout, expected", NINE_VECTORS,
                         ids=[v[0] for v in NINE_VECTORS])
def test_nine_card_vector_through_golfsim_score(vid, options, layout, expected):
    result = CliRunner().invoke(cli, ["score", "--preset", "nine_card", "--json",
                                      *_set_args(options), layout])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == expected
