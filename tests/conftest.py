"""Test tiers: the ``slow`` marker (and ``bench``, registered only).

pyproject.toml may register ``slow`` itself and deselect it by default (``addopts``); then this
file does nothing. Where it does not, the marker is registered here and slow tests are skipped
unless a ``-m`` expression was given, so that the default run stays short either way."""

from __future__ import annotations

import pytest

_OWN = "_golfsim_registered_slow"


def _registered(config, name: str) -> bool:
    return any(line.split(":")[0].strip() == name for line in config.getini("markers"))


def pytest_configure(config):
    if not _registered(config, "slow"):
        config.addinivalue_line("markers", "slow: long sweeps (run with -m slow)")
        setattr(config, _OWN, True)
    if not _registered(config, "bench"):  # registered only: bench tests still run by default
        config.addinivalue_line("markers", "bench: checks of the benchmarks' own programs")


def pytest_collection_modifyitems(config, items):
    if not getattr(config, _OWN, False) or config.option.markexpr:
        return
    skip = pytest.mark.skip(reason="slow tier: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
