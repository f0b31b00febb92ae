"""golfsim: a Monte Carlo simulator for the Golf card-game family.

The ``golfsim`` command is simulator/cli.py; the same commands as Python functions are
simulator/api/ (``import simulator.api as golf`` or ``from simulator import api``;
docs/api.md). ``simulator.api`` is imported on first use, so that ``import simulator`` and
the compiled kernels' own imports stay light."""


def __getattr__(name: str):
    if name == "api":   # importlib: `from . import api` here would call this again
        import importlib
        return importlib.import_module(f"{__name__}.api")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
