"""The errors of the Python API, and their words: a message names the command line's
options when the command line called (simulator/cli.py), the function's arguments when Python
did."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import re


class GolfsimError(ValueError):
    """Bad arguments, or a command that cannot go on; the message is the one line the command
    line prints after ``golfsim: error:``."""


class PolicyError(GolfsimError):
    """A policy made an illegal move. ``result`` holds what was played before it when the
    command keeps that (``run``: the rounds of the chunks that finished), else None."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (a notebook's stop button) stopped a command. The message says what is kept;
    ``result`` holds what was played when the command returns that (``run``), else None."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.message = message
        self.result = result

    def __str__(self) -> str:
        return self.message


class GolfsimWarning(UserWarning):
    """Results that are not what they seem (e.g. most rounds stopped by the turn cap); the
    metadata's ``warnings`` holds the same text."""


# The checks word their messages as the command line's options; called from Python, a message
# names the function's arguments instead. The command line's own flags whose argument has
# another name:
_FLAG_ARGUMENTS = {"rules": "rules_file"}
_FLAG = re.compile(r"--([a-z][a-z0-9-]*)( [^\s'\"()]+)?")
_WORD = re.compile(r"[a-z]+")   # a word of the sentence after an option, not its value
_FROM_COMMAND_LINE = contextvars.ContextVar("golfsim_command_line", default=False)


@contextlib.contextmanager
def command_line_words():
    """Within it, errors keep naming the command line's options (simulator/cli.py)."""
    token = _FROM_COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _FROM_COMMAND_LINE.reset(token)


def python_words(message: str, arguments) -> str:
    """``message`` with every command-line option that is one of ``arguments`` named as the
    argument: "--players 9:" -> "players=9:", "--opponent SPEC" -> "opponent=SPEC",
    "--rules" -> "rules_file"."""
    def name(m: re.Match) -> str:
        arg = _FLAG_ARGUMENTS.get(m.group(1), m.group(1).replace("-", "_"))
        if arg not in arguments:
            return m.group(0)
        value = (m.group(2) or " ")[1:]
        tail = value[len(value.rstrip(",.;:")):]
        value = value[:len(value) - len(tail)]
        if not value or _WORD.fullmatch(value):
            return arg + (m.group(2) or "")
        return f"{arg}={value}{tail}"
    return _FLAG.sub(name, message)


def in_python_words(fn):
    """The public function ``fn``, whose errors name its arguments when called from Python."""
    arguments = frozenset(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except GolfsimError as e:
            if not _FROM_COMMAND_LINE.get() and e.args and isinstance(e.args[0], str):
                e.args = (python_words(e.args[0], arguments),) + e.args[1:]
            raise
    return wrapper
