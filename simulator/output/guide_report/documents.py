"""The guide's files: guide.md, guide.html (one self-contained file, its figures inlined), and
writing them with guide.parquet and the figures."""

from __future__ import annotations

import base64
import html
from pathlib import Path

from ...experiments.guide import GuideResult
from ...experiments.report import atomic_path, version, write_parquet_atomic
from .data import HOUSE_RULES_PARQUET, PARQUET, frame, metadata, title
from .charts import house_rules, write_figures
from .sections import _sections
from .tables import POWERS_CLASS
from .words import ADVICE_TABLE


# ---- Markdown --------------------------------------------------------------------------------
def _md_cell(c) -> str:
    text = str(c).replace("|", "\\|")
    if getattr(c, "kind", "") == "clear":
        return f"**{text}**"
    return text


def _md_table(header, rows, words: int = 1) -> list[str]:
    """``words``: how many columns, from the first, hold words (left-aligned)."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i < words else "---:" for i in range(len(header))) + "|"]
    return lines + ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]


def markdown(result: GuideResult, figures: list[Path]) -> str:
    lines = [f"# Strategy guide: {title(result)}", ""]
    for block in _sections(result, {p.name for p in figures}):
        kind = block[0]
        if kind in ("h2", "h3"):
            lines += [("## " if kind == "h2" else "### ") + block[1], ""]
        elif kind in ("p", "note", "verdict"):
            lines += [block[1], ""]
        elif kind == "dl":
            lines += [f"- **{label}:** {text}" for label, text in block[1]] + [""]
        elif kind == "ul":
            lines += [f"- {x}" for x in block[1]] + [""]
        elif kind == "ol":
            lines += [f"{i}. {x}" for i, x in enumerate(block[1], 1)] + [""]
        elif kind == "table":
            words = {POWERS_CLASS: len(block[1]) - 1, ADVICE_TABLE: 3}.get(block[3], 1)
            lines += _md_table(block[1], block[2], words) + [""]
        elif kind == "img":
            lines += [f"![{block[2]}]({block[1]})", ""]
    lines += [f"golfsim {version()}", ""]
    return "\n".join(lines)


# ---- HTML ------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1, h2, h3, p, li, dd { overflow-wrap: break-word; }
h1 { border-bottom: 2px solid #2ca02c; padding-bottom: .2em; }
.scroll { overflow-x: auto; max-width: 100%; margin: 1em 0; }
table { border-collapse: collapse; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
table.house-rules td { white-space: nowrap; }   /* one line a cell; its wrapper scrolls */
td.clear { font-weight: bold; }
td.na { color: #999; background: #f7f7f7; }
td.good { background: #e6f4e6; } td.bad { background: #fbeaea; }
dl.rules dt { font-weight: bold; margin-top: .4em; }
dl.rules dd { margin-left: 1.2em; }
ol.thumb li { margin: .25em 0; }
.verdict { background: #eef6ee; border-left: 4px solid #2ca02c; padding: .6em 1em; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; margin: .5em 0; }
.note { color: #555; font-size: .9em; }
@media (max-width: 600px) {
  body { margin: 1em auto; padding: 0 .6em; }
  table { font-size: .8em; }
  th, td { padding: .2em .35em; }
}
@media print {   /* paper does not scroll: every table whole, at the page's width */
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  .scroll { overflow: visible; }
  table { width: 100%; font-size: 8pt; }
  thead { display: table-header-group; }
  th, td, table.house-rules td { padding: .15em .3em; white-space: normal;
                                 overflow-wrap: anywhere; }
  tr, img, .verdict { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  img { border: none; }
}
"""
# the table of powers: its columns of words to the left, the advice to the right
CSS += (f"table.{POWERS_CLASS} td:not(:last-child), table.{POWERS_CLASS} th:not(:last-child) "
        "{ text-align: left; }\n")
# what players say: the advice, how it was measured and the verdict to the left
CSS += (f"table.{ADVICE_TABLE} td:nth-child(-n+3), table.{ADVICE_TABLE} th:nth-child(-n+3) "
        "{ text-align: left; }\n")


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _html_table(header, rows, cls="") -> str:
    e = html.escape
    out = [f'<div class="scroll"><table class="{cls}"><thead><tr>'
           + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(
            f'<td class="{getattr(c, "kind", "")}">{e(str(c))}</td>' for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def html_page(result: GuideResult, figures: list[Path]) -> str:
    by_name = {p.name: p for p in figures}
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>Strategy guide: {e(title(result))}</title><style>{CSS}</style></head>"
             f"<body><h1>Strategy guide: {e(title(result))}</h1>"]
    for block in _sections(result, set(by_name)):
        kind = block[0]
        if kind in ("h2", "h3"):
            parts.append(f"<{kind}>{e(block[1])}</{kind}>")
        elif kind == "p":
            parts.append(f"<p>{e(block[1])}</p>")
        elif kind == "note":
            parts.append(f"<p class='note'>{e(block[1])}</p>")
        elif kind == "verdict":
            parts.append(f"<p class='verdict' id='verdict'>{e(block[1])}</p>")
        elif kind == "dl":
            parts.append("<dl class='rules'>" + "".join(
                f"<dt>{e(label)}</dt><dd>{e(text)}</dd>" for label, text in block[1])
                + "</dl>")
        elif kind in ("ul", "ol"):
            cls = " class='thumb'" if kind == "ol" else ""
            parts.append(f"<{kind}{cls}>" + "".join(f"<li>{e(x)}</li>" for x in block[1])
                         + f"</{kind}>")
        elif kind == "table":
            parts.append(_html_table(block[1], block[2], block[3]))
        elif kind == "img":
            parts.append(_img(by_name[block[1]], block[2]))
    parts.append(f"<p class='note'>golfsim {e(version())}</p></body></html>")
    return "\n".join(parts)


def write(result: GuideResult, out: str | Path, command: str,
          rules_file: str | None = None) -> list[Path]:
    """Write the guide's files (each atomically) and return their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    df = frame(result)
    meta = metadata(result, command, rules_file)
    written = [write_parquet_atomic(df, out / PARQUET, meta)]
    house = house_rules(result)
    if house is not None:
        written.append(write_parquet_atomic(house[0], out / HOUSE_RULES_PARQUET,
                                            {**meta, "title": house[1]}))
    figures = write_figures(result, df, out)
    written += figures
    for name, text in (("guide.md", markdown(result, figures)),
                       ("guide.html", html_page(result, figures))):
        with atomic_path(out / name) as tmp:
            tmp.write_text(text, encoding="utf-8")
        written.append(out / name)
    return written
