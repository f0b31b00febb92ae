"""The project's own documents: docs/rules.md is what scripts/make_docs.py makes of the code,
and every document the project cites is in the project.

The rules reference's option and preset sections are generated from the options' metadata in
simulator/game/rules/; these tests regenerate them in memory and fail when the page has drifted.
They also read README.md, docs/ and the source folders for references to files (``*.md``
paths, the shared working folder outside the repository) and to sections or ids of a rules
text, and fail on any that leads outside the project.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path

import pytest

from simulator.game import codes as K
from simulator.game import rules as R

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs/rules.md"
RUN_SCRIPT = "python scripts/make_docs.py"


def _make_docs():
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "scripts" / "make_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- docs/rules.md against the code -------------------------------------------------------------
def test_rules_doc_matches_the_code():
    old = RULES_DOC.read_text(encoding="utf-8")
    new = _make_docs().render(old)
    if new != old:
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "docs/rules.md",
                                    "generated from simulator/game/rules/", lineterm="", n=1)
        shown = "\n".join(list(diff)[:40])
        pytest.fail(f"docs/rules.md differs from the rule options in the code: run `{RUN_SCRIPT}` "
                    f"and commit the result.\n{shown}", pytrace=False)


def test_render_keeps_the_prose_and_needs_every_block():
    md = _make_docs()
    page = RULES_DOC.read_text(encoding="utf-8")
    fresh = md.render(page)
    stale = page.replace("| [`grid_cols`](#grid_cols) | `2` | `3` |",
                         "| [`grid_cols`](#grid_cols) | `2` | `4` |", 1)
    assert stale != page
    assert md.render(stale) == fresh                  # a drifted table is rebuilt
    old, new = "Golf is a family of card games", "Golf is a family of games"
    prose = page.replace(old, new, 1)
    assert md.render(prose) == fresh.replace(old, new, 1)   # hand-written text is kept
    with pytest.raises(md.DocError, match="presets"):
        md.render(page.replace("<!-- generated: presets -->", "", 1))


def test_every_option_and_preset_has_a_section():
    text = RULES_DOC.read_text(encoding="utf-8")
    anchors = _anchors(text)
    missing = [name for name in list(R.OPTIONS) + list(R.PRESETS) if name not in anchors]
    assert not missing, f"docs/rules.md has no section for {missing}: run `{RUN_SCRIPT}`"


def test_named_values_are_described_completely():
    """An option whose values are described has every named value described, and only
    values it allows (a value added or renamed in the code must be described too)."""
    for name, described in R.VALUE_DESCRIPTIONS.items():
        f = R.OPTIONS[name]
        allowed = list(K.END_TRIGGERS) if name == "end_triggers" else list(f.metadata["allowed"])
        named = [v for v in allowed if isinstance(v, str)]
        assert set(described) <= set(allowed), \
            f"VALUE_DESCRIPTIONS[{name!r}] describes values the option does not allow"
        assert set(named) <= set(described), \
            f"VALUE_DESCRIPTIONS[{name!r}] does not describe {sorted(set(named) - set(described))}"
        assert all(text.strip() for text in described.values())
    for name, f in R.OPTIONS.items():
        assert f.metadata["doc"].strip(), f"option {name} has no description"


# ---- references -----------------------------------------------------------------------------------
SCANNED = ("README.md", "docs", "simulator", "strategies", "benchmarks", "scripts", "tests")
SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".yaml", ".yml", ".cfg", ".sh", ".c", ".h"}
THIS_FILE = Path(__file__).resolve()  # names the patterns it looks for, so it is not scanned
# a path ending in .md, not part of a URL, and the anchor after it
MD_REF = re.compile(r"(?<![\w./:-])((?:\.\.?/)*[\w./-]*?[\w-]+\.md)\b(?:#([\w-]+))?")
# the shared working folder beside the project, which users never get
SHARED = re.compile(r"(?:\.\./|/work/)shared\b[\w./-]*")
# only benchmarks/ may name the C yardstick there (it is kept outside on purpose)
YARDSTICK = re.compile(r"\.\./shared/yardstick(?:/[\w.-]*)*")
# Markdown files that golfsim itself writes into an --out folder
WRITTEN_BY_GOLFSIM = {"compare.md", "guide.md"}
# a name made from one of those documents' names, e.g. a test named after a section of one
CITING_NAME = re.compile(r"\b\w*(?:rules|benchmark)_md\w*", re.I)
AMB_ID = re.compile(r"\bAMB-(\d+)\b")
TIP_ID = re.compile(r"\bS-(\d+)\b")


def _scanned_files() -> list[Path]:
    files = []
    for name in SCANNED:
        path = ROOT / name
        found = [path] if path.is_file() else sorted(path.rglob("*"))
        files += [p for p in found if p.is_file() and p.suffix in SUFFIXES and
                  "__pycache__" not in p.parts and p.resolve() != THIS_FILE]
    return files


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(markdown: str) -> set[str]:
    anchors, seen = set(), {}
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            anchors.add(slug if n == 0 else f"{slug}-{n}")
            seen[slug] = n + 1
    anchors |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", markdown))
    return anchors


def _where(path: Path, text: str, pos: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, pos) + 1}"


def test_cited_files_are_in_the_project():
    problems = []
    anchors_of: dict[Path, set[str]] = {}
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in MD_REF.finditer(text):
            ref, anchor = m.group(1), m.group(2)
            if Path(ref).name in WRITTEN_BY_GOLFSIM:
                continue
            target = next((base / ref for base in (ROOT, path.parent)
                           if (base / ref).is_file()), None)
            if target is None:
                problems.append(f"{_where(path, text, m.start())}: {ref} is not in the "
                                "repository")
                continue
            if anchor:
                target = target.resolve()
                if target not in anchors_of:
                    anchors_of[target] = _anchors(target.read_text(encoding="utf-8"))
                if anchor not in anchors_of[target]:
                    problems.append(f"{_where(path, text, m.start())}: {ref} has no section "
                                    f"#{anchor}")
        for m in SHARED.finditer(text):
            in_benchmarks = path.relative_to(ROOT).parts[0] == "benchmarks"
            if not (in_benchmarks and YARDSTICK.fullmatch(m.group(0).rstrip("."))):
                problems.append(f"{_where(path, text, m.start())}: {m.group(0)} is outside the "
                                "repository (only benchmarks/ may name ../shared/yardstick)")
        for m in CITING_NAME.finditer(text):
            problems.append(f"{_where(path, text, m.start())}: {m.group(0)} is named after a "
                            "document outside the project")
        for m in re.finditer("\u00a7", text):
            problems.append(f"{_where(path, text, m.start())}: a section sign cites a section "
                            "of a rules text outside the project; cite docs/rules.md#<section>")
    assert not problems, "references that lead outside the project:\n" + "\n".join(problems)


def test_ambiguity_and_tip_ids_are_explained():
    """AMB-nn (ambiguities) and S-n (strategy tips) cited anywhere are explained in
    docs/rules.md, each with its own anchor (amb-nn, s-n)."""
    anchors = _anchors(RULES_DOC.read_text(encoding="utf-8"))
    problems = []
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern, prefix, section in ((AMB_ID, "amb", "ambiguities-resolved"),
                                         (TIP_ID, "s", "strategy-tips")):
            for m in pattern.finditer(text):
                if f"{prefix}-{m.group(1)}" not in anchors:
                    problems.append(f"{_where(path, text, m.start())}: {m.group(0)} is not in "
                                    f"docs/rules.md#{section}")
    assert not problems, "\n".join(problems)


# ---- the house-rule catalogue ----------------------------------------------------------------
HOUSE_RULES_DOC = ROOT / "docs" / "house_rules.md"
# the golfgame server's switches the catalogue must map (issue: every one expressible)
GOLFGAME_NAMES = ("super_kings", "ten_penny", "lucky_swing", "knock_bonus", "underdog_bonus",
                  "tied_shame", "blackjack", "wolfpack", "four_of_a_kind", "eagle_eye",
                  "one_eyed_jacks", "flip_mode = never", "flip_mode = always",
                  "flip_mode = endgame", "flip_as_action", "knock_early", "knock_penalty")


def _catalogue_rows() -> list[tuple[str, str, list[str]]]:
    """(preset, name, assignments) of every table row of docs/house_rules.md: the preset is
    the one its table's heading names (six_card unless it names another)."""
    rows, preset = [], "six_card"
    for line in HOUSE_RULES_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            preset = "eight_card_whitnack" if "Whitnack" in line else "six_card"
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or set(cells[0]) <= set("-") or \
                cells[0] in ("golfgame name", "Name"):
            continue
        spans = re.findall(r"`([^`]+)`", cells[-1])
        assignments = [a for span in spans if "=" in span for a in span.split()]
        rows.append((preset, cells[0], assignments))
    return rows


def test_house_rule_catalogue_maps_to_options_that_parse():
    rows = _catalogue_rows()
    assert len(rows) >= 40
    for preset, name, assignments in rows:
        if assignments:   # every option=value parses and applies on the table's preset
            R.Rules.preset(preset).with_text_options(assignments)
    names = {n.split("`")[1] if "`" in n else n for _, n, _ in rows}
    assert not [n for n in GOLFGAME_NAMES if n not in names]
