"""The shape every bad command line must fail with: exit status 2, nothing on stdout, and one
line ``golfsim: error: ...`` on stderr naming what was wrong."""

from __future__ import annotations


def assert_one_line_error(res, args, needles) -> None:
    """``res``: a click CliRunner result of ``args``; every needle must be in the line."""
    shown = " ".join(map(str, args))
    assert res.exit_code == 2, (shown, res.output, res.exception)
    assert isinstance(res.exception, SystemExit), (shown, res.exception)
    assert "Traceback" not in res.output, shown
    assert res.stdout == "", shown
    lines = res.stderr.splitlines()
    assert len(lines) == 1, (shown, res.stderr)
    assert lines[0].startswith("golfsim: error: "), (shown, lines[0])
    for needle in needles:
        assert needle in lines[0], (shown, needle, lines[0])
