"""Every layout vector of tests/test_vectors.py (docs/rules.md#test-vectors) through the `golfsim
score` command, with its options given as --set, exactly as a user would type them."""

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


PRESET_VECTORS = [("four_card", v) for v in FOUR_CARD_VECTORS] + \
    [("nine_card", v) for v in NINE_VECTORS]


@pytest.mark.parametrize("preset, vector", PRESET_VECTORS,
                         ids=[f"{p}-{v[0]}" for p, v in PRESET_VECTORS])
def test_preset_vector_through_golfsim_score(preset, vector):
    _, options, layout, expected = vector
    result = CliRunner().invoke(cli, ["score", "--json", "--preset", preset,
                                      *_set_args(options), layout])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == expected
