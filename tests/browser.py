"""A page golfsim writes (the guide's guide.html, replay --html) opened in headless Chromium at a
phone's width, a desktop's and on paper, with what it must then do checked in the page.

``chromium()`` starts Debian's chromium through its chromedriver (.ci/run installs both); the
calling test is skipped, with the reason, when they are missing. Tests never install system
packages. ``check_page`` opens a page at each width, saves a screenshot of the whole page there
and returns what it found wrong, one line each:

- the page is laid out wider than the phone's screen and shrunk (something is too wide, or
  it has no viewport ``<meta>``);
- the page scrolls sideways (``document.documentElement.scrollWidth`` wider than the window);
- a table reaches past the window's edge and is not inside a wrapper that scrolls sideways
  (``overflow-x: auto`` or ``scroll``) and itself fits;
- an image is not loaded (``naturalWidth`` 0) or is wider than the window;
- the screenshot is blank (a single colour, or almost).

``check_print`` lays the page out for paper (print media, about an A4 page's printable width):
every table must fit the width whole (paper does not scroll: no wrapper may hide or scroll
its overflow), its rows must not break across pages, and Chromium's PDF of it must be written
(a screenshot of the page laid out for paper is kept beside it).
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from PIL import Image

PHONE, DESKTOP = 390, 1280
WIDTHS = (PHONE, DESKTOP)
PAPER = 680   # A4's 210 mm less 15 mm margins on each side, at 96 CSS pixels to the inch
HEIGHT = 900
MAX_SHOT = 20_000   # px of a page's screenshot

LAYOUT = """
const width = window.innerWidth;
const out = {width: width, scrollWidth: document.documentElement.scrollWidth, tables: [],
             images: []};
const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
for (const t of document.querySelectorAll('table')) {
  const r = t.getBoundingClientRect();
  let wrapper = null;
  for (let p = t.parentElement; p && p !== document.body; p = p.parentElement) {
    if (scrolls(p)) { wrapper = p; break; }
  }
  const w = wrapper ? wrapper.getBoundingClientRect() : null;
  let ancestors = [];
  for (let p = t.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    const s = getComputedStyle(p);
    ancestors.push([p.tagName + (p.className ? '.' + p.className : ''), s.overflowX,
                    s.overflowY]);
  }
  const rows = Array.from(t.querySelectorAll('tr')).map(
    tr => getComputedStyle(tr).breakInside);
  out.tables.push({cls: t.className, left: r.left, right: r.right,
                   wrapper: w ? [w.left, w.right] : null, ancestors: ancestors,
                   rowBreaks: Array.from(new Set(rows))});
}
for (const i of document.images) {
  const r = i.getBoundingClientRect();
  out.images.push({alt: i.alt, complete: i.complete, natural: i.naturalWidth,
                   left: r.left, right: r.right});
}
return out;
"""


def chromium():
    """A headless Chromium driver (Debian's chromium and chromedriver), or skip the test."""
    need = [p for p in ("/usr/bin/chromium", "/usr/bin/chromedriver") if not Path(p).exists()]
    if need:
        pytest.skip(f"headless Chromium is not available ({', '.join(need)} missing; Debian's "
                    "chromium and chromium-driver packages provide them: apt-get install "
                    "chromium chromium-driver, as .ci/run does)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--hide-scrollbars",
              f"--window-size={DESKTOP},{HEIGHT}"):
        options.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def open_page(driver, page: Path, width: int, media: str = "") -> None:
    """Load ``page`` in a window ``width`` CSS pixels wide (a phone's, with its viewport rules,
    below 600), laid out for ``media`` ("print" or the screen), its images loaded."""
    from selenium.webdriver.support.ui import WebDriverWait
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": media})
    driver.get(page.resolve().as_uri())
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && "
        "Array.from(document.images).every(i => i.complete)"))


def screenshot(driver, path: Path, width: int) -> None:
    """The whole page, top to bottom (at most MAX_SHOT px), as a PNG."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": min(height, MAX_SHOT), "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))


def layout(driver) -> dict:
    return driver.execute_script(LAYOUT)


def blank(png: Path) -> bool:
    """A screenshot with (almost) nothing on it: fewer than 1% of its pixels differ from its
    commonest colour."""
    with Image.open(png) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
        total = im.width * im.height
    if colours is None:   # more colours than that: far from blank
        return False
    return max(c for c, _ in colours) > 0.99 * total


def screen_faults(found: dict, width: int, where: str) -> list[str]:
    """What does not fit a window ``width`` px wide."""
    out = []
    if found["scrollWidth"] > width:
        out.append(f"{where}: the page scrolls sideways ({found['scrollWidth']} px of content "
                   f"in a {width} px window)")
    for t in found["tables"]:
        if t["left"] >= -1 and t["right"] <= width + 1:
            continue
        w = t["wrapper"]
        if w is None:
            out.append(f"{where}: table.{t['cls']} reaches {t['right']:.0f} px in a {width} px "
                       "window and no wrapper scrolls it")
        elif w[0] < -1 or w[1] > width + 1:
            out.append(f"{where}: the wrapper of table.{t['cls']} reaches {w[1]:.0f} px in a "
                       f"{width} px window")
    for i in found["images"]:
        if not i["complete"] or i["natural"] <= 0:
            out.append(f"{where}: image {i['alt']!r} did not load")
        elif i["left"] < -1 or i["right"] > width + 1:
            out.append(f"{where}: image {i['alt']!r} reaches {i['right']:.0f} px in a {width} px "
                       "window")
    return out


def check_page(driver, page: Path, shots: Path, name: str) -> list[str]:
    """Open ``page`` at every width of WIDTHS, save ``{name}-{width}.png`` into ``shots`` and
    return the faults found (the module's docstring lists them)."""
    out = []
    for width in WIDTHS:
        open_page(driver, page, width)
        found = layout(driver)
        where = f"{name} at {width} px"
        if found["width"] != width:
            out.append(f"{where}: the page is laid out {found['width']} px wide and shrunk to "
                       "the screen, as a phone does when something is wider than the screen "
                       "or the page has no <meta name='viewport' content='width=device-width'>")
        out += screen_faults(found, width, where)
        shot = shots / f"{name}-{width}.png"
        screenshot(driver, shot, width)
        with Image.open(shot) as im:
            if im.width != width:
                out.append(f"{where}: the screenshot is {im.width} px wide")
        if blank(shot):
            out.append(f"{where}: the screenshot {shot} is blank")
    return _once(out)


def check_screens_and_paper(driver, page: Path, shots: Path, name: str) -> list[str]:
    """check_page and check_print's faults; the page is left open at a desktop's width, for
    the caller's own checks."""
    faults = check_page(driver, page, shots, name) + check_print(driver, page, shots, name)
    open_page(driver, page, DESKTOP)
    return faults


def _once(faults: list[str]) -> list[str]:
    """Each fault once, with how many times it was found (a table repeated in every turn)."""
    counts: dict[str, int] = {}
    for f in faults:
        counts[f] = counts.get(f, 0) + 1
    return [f if n == 1 else f"{f} (x{n})" for f, n in counts.items()]


def check_print(driver, page: Path, shots: Path, name: str) -> list[str]:
    """Lay ``page`` out for paper; return what would be lost there (the module's docstring).
    Chromium's PDF of the page is written to ``{name}.pdf`` in ``shots``."""
    open_page(driver, page, PAPER, "print")
    found = layout(driver)
    where = f"{name} on paper ({PAPER} px)"
    out = []
    for t in found["tables"]:
        if t["left"] < -1 or t["right"] > PAPER + 1:
            out.append(f"{where}: table.{t['cls']} reaches {t['right']:.0f} px: its right "
                       "columns would be cut off")
        for tag, ox, oy in t["ancestors"]:
            if ox != "visible" or oy != "visible":
                out.append(f"{where}: {tag} around table.{t['cls']} has overflow {ox}/{oy}: "
                           "paper cannot scroll it")
        if t["rowBreaks"] != ["avoid"]:
            out.append(f"{where}: the rows of table.{t['cls']} may break across pages "
                       f"(break-inside {t['rowBreaks']})")
    screenshot(driver, shots / f"{name}-print.png", PAPER)
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True,
                                                      "paperWidth": 8.27, "paperHeight": 11.69})
    path = shots / f"{name}.pdf"
    path.write_bytes(base64.b64decode(pdf["data"]))
    if not path.read_bytes().startswith(b"%PDF"):
        out.append(f"{where}: Chromium wrote no PDF")
    return _once(out)
