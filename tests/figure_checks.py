"""What a figure must not do, measured with matplotlib's own renderer (tests/test_figures.py).

``problems(fig)`` lays the figure out as drawing it does (its constrained layout), measures it
with an Agg renderer and returns one line per fault, empty when there is none:

- a text (the suptitle, a title, an axis label, a drawn tick label, a legend, a colorbar's
  label, a note) reaching outside the figure: it would be cut off in the PNG;
- a text written inside an axes (the numbers in a heatmap's cells) reaching outside that axes;
- a legend over data: a bar, a point or marker of a line, an error bar, a scatter marker, a
  filled image cell or a text inside the axes (lines drawn across the whole axes, such as
  ``axhline``'s reference lines, are not data);
- two texts laid out by the figure overlapping each other (crowded tick labels, a title over
  a legend).

Bounding boxes are in display pixels; a tolerance of ``TOL`` pixels absorbs rounding.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection, LineCollection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.legend import Legend
from matplotlib.patches import Rectangle
from matplotlib.transforms import Bbox

TOL = 1.0   # pixels


def _inside(inner: Bbox, outer: Bbox, tol: float = TOL) -> bool:
    return (inner.x0 >= outer.x0 - tol and inner.y0 >= outer.y0 - tol and
            inner.x1 <= outer.x1 + tol and inner.y1 <= outer.y1 + tol)


def _overlap(a: Bbox, b: Bbox, tol: float = TOL) -> bool:
    """The boxes share an area wider and taller than ``tol`` pixels."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w > tol and h > tol


def _hit(points: np.ndarray, box: Bbox, tol: float = TOL) -> bool:
    """Some of ``points`` (n x 2, display pixels) lie inside ``box`` shrunk by ``tol``."""
    if points.size == 0:
        return False
    p = points[np.all(np.isfinite(points), axis=1)]
    return bool(np.any((p[:, 0] > box.x0 + tol) & (p[:, 0] < box.x1 - tol) &
                       (p[:, 1] > box.y0 + tol) & (p[:, 1] < box.y1 - tol)))


def _along(points: np.ndarray, steps: int = 40) -> np.ndarray:
    """Points along the polyline through ``points`` (the segments, not only their ends)."""
    if len(points) < 2:
        return points
    t = np.linspace(0.0, 1.0, steps)[:, None]
    return np.vstack([a + t * (b - a) for a, b in zip(points[:-1], points[1:])])


def _name(artist) -> str:
    text = getattr(artist, "get_text", lambda: "")()
    label = getattr(artist, "get_label", lambda: "")()
    what = type(artist).__name__
    if text:
        one = text.replace("\n", " / ")
        return f"{what} {one if len(one) <= 60 else one[:57] + '...'!r}"
    return f"{what} {label!r}" if label and not label.startswith("_") else what


def _axes_title(ax) -> str:
    t = ax.get_title() or ax.get_ylabel() or ax.get_xlabel() or "an untitled axes"
    t = t.splitlines()[0]
    return repr(t if len(t) <= 50 else t[:47] + "...")


def _visible_text(t) -> bool:
    return t is not None and t.get_visible() and bool(t.get_text().strip())


def tick_labels(axis) -> list:
    """The tick labels matplotlib draws: those of the major ticks within the view limits."""
    locs = axis.get_majorticklocs()
    lo, hi = sorted(axis.get_view_interval())
    eps = 1e-9 * max(abs(hi - lo), 1e-12)
    out = []
    for tick, loc in zip(axis.get_major_ticks(len(locs)), locs):
        if lo - eps <= loc <= hi + eps and tick.get_visible():
            out += [lab for lab in (tick.label1, tick.label2) if _visible_text(lab)]
    return out


def layout_texts(fig: Figure) -> list[tuple[str, object]]:
    """(where, artist) for every visible text the figure lays out around its axes, and every
    legend (as a whole); texts inside an axes (``ax.texts``) are not among them."""
    out = []
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        t = getattr(fig, name, None)
        if _visible_text(t):
            out.append(("figure", t))
    out += [("figure", t) for t in fig.texts
            if _visible_text(t) and not any(t is u for _, u in out)]
    out += [("figure", leg) for leg in fig.legends if leg.get_visible()]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        where = f"axes {_axes_title(ax)}"
        for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label,
                  ax.xaxis.get_offset_text(), ax.yaxis.get_offset_text()):
            if _visible_text(t):
                out.append((where, t))
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_visible():
                out += [(where, t) for t in tick_labels(axis)]
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            out.append((where, leg))
    return out


def data_shapes(ax, renderer) -> list[tuple[str, object]]:
    """(what, shape) for the data drawn in ``ax``: a shape is a Bbox (a bar, an image cell, a
    text) or an n x 2 array of display points (a line's points and segments, markers, error
    bars)."""
    out: list[tuple[str, object]] = []
    for p in ax.patches:
        if p.get_visible() and isinstance(p, Rectangle):
            bb = p.get_window_extent(renderer)
            if bb.width > TOL or bb.height > TOL:
                out.append((f"bar {_name(p)}", bb))
    for line in ax.lines:
        if not line.get_visible() or not line.get_transform().contains_branch(ax.transData):
            continue   # axhline / axvline: drawn across the axes, a reference, not data
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), float))
        if line.get_linestyle() in ("None", "none", "", " "):
            out.append((f"points or error-bar caps {_name(line)}", xy))
        else:
            out.append((f"line {_name(line)}", _along(xy)))
    for c in ax.collections:
        if not c.get_visible() or not isinstance(c, Collection):
            continue
        if isinstance(c, LineCollection):
            trans = c.get_transform()
            pts = [_along(trans.transform(np.asarray(s, float))) for s in c.get_segments()
                   if len(s)]
            if pts:
                out.append((f"error bars or lines {_name(c)}", np.vstack(pts)))
        elif len(c.get_offsets()):
            pts = c.get_offset_transform().transform(np.asarray(c.get_offsets(), float))
            out.append((f"markers {_name(c)}", pts))
    for im in ax.images:
        if not isinstance(im, AxesImage) or not im.get_visible():
            continue
        a = np.ma.masked_invalid(np.ma.asarray(im.get_array()))
        x0, x1, y0, y1 = im.get_extent()
        rows, cols = a.shape[:2]
        for i in range(rows):
            for j in range(cols):
                if a.mask is not np.ma.nomask and np.ma.getmaskarray(a)[i, j]:
                    continue
                cx = np.array([x0 + j * (x1 - x0) / cols, x0 + (j + 1) * (x1 - x0) / cols])
                cy = np.array([y0 + i * (y1 - y0) / rows, y0 + (i + 1) * (y1 - y0) / rows])
                corners = ax.transData.transform(np.column_stack([cx, cy]))
                out.append((f"image cell ({i}, {j})", Bbox(np.sort(corners, axis=0))))
    for t in ax.texts:
        if _visible_text(t):
            out.append((f"text {t.get_text()!r}", t.get_window_extent(renderer)))
    return out


def _covers(legend_box: Bbox, shape) -> bool:
    if isinstance(shape, Bbox):
        return _overlap(legend_box, shape)
    return _hit(np.asarray(shape), legend_box)


def problems(fig: Figure) -> list[str]:
    """Every fault of ``fig`` (see the module's docstring), one line each."""
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()    # lays the figure out (constrained layout) as a draw does
    r = canvas.get_renderer()
    page = fig.bbox
    out: list[str] = []
    tight = fig.get_tightbbox(r).transformed(fig.dpi_scale_trans)
    if not _inside(tight, page):
        out.append(f"what is drawn ({_fmt(tight)}) reaches outside the figure "
                   f"({_fmt(page)})")
    texts = layout_texts(fig)
    boxes = [(where, t, t.get_window_extent(r)) for where, t in texts]
    for where, t, bb in boxes:
        if not _inside(bb, page):
            out.append(f"{where}: {_name(t)} at {_fmt(bb)} is cut off by the figure "
                       f"({_fmt(page)})")
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        box = ax.get_window_extent(r)
        for t in ax.texts:
            if _visible_text(t) and not _inside(t.get_window_extent(r), box):
                out.append(f"axes {_axes_title(ax)}: {_name(t)} reaches outside the axes")
        legends = [leg for leg in [ax.get_legend()] if leg is not None and leg.get_visible()]
        for leg in legends:
            lb = leg.get_window_extent(r)
            covered = [what for what, shape in data_shapes(ax, r) if _covers(lb, shape)]
            if covered:
                out.append(f"axes {_axes_title(ax)}: the legend covers {_count(covered)}")
    for leg in fig.legends:
        lb = leg.get_window_extent(r)
        for ax in fig.axes:
            if ax.get_visible() and _overlap(lb, ax.get_window_extent(r)):
                covered = [what for what, shape in data_shapes(ax, r) if _covers(lb, shape)]
                if covered:
                    out.append(f"the figure's legend covers {_count(covered)} of axes "
                               f"{_axes_title(ax)}")
    shapes = [(where, t, bb, _outline(t, bb, r)) for where, t, bb in boxes]
    for i, (wa, a, ba, pa) in enumerate(shapes):
        for wb, b, bb, pb in shapes[i + 1:]:
            if _overlap(ba, bb) and _polygons_overlap(pa, pb) and not _contains(a, b) \
                    and not _contains(b, a):
                out.append(f"{wa}: {_name(a)} overlaps {wb}: {_name(b)}")
    return out


def _outline(artist, box: Bbox, renderer) -> np.ndarray:
    """The corners (4 x 2, display pixels) of a text as drawn: a rotated text fills only a
    part of its bounding box, which is the box of its rotated rectangle."""
    angle = artist.get_rotation() if hasattr(artist, "get_rotation") else 0.0
    corners = np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]])
    if angle % 90 == 0:
        return corners
    artist.set_rotation(0)
    try:
        flat = artist.get_window_extent(renderer)
    finally:
        artist.set_rotation(angle)
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [flat.width / 2, flat.height / 2]
    return half @ turn.T + [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2]


def _polygons_overlap(a: np.ndarray, b: np.ndarray, tol: float = TOL) -> bool:
    """Two convex polygons share more than a ``tol``-pixel sliver (separating axis test)."""
    for poly in (a, b):
        for p, q in zip(poly, np.roll(poly, -1, axis=0)):
            axis = np.array([q[1] - p[1], p[0] - q[0]])
            norm = np.hypot(*axis)
            if norm == 0:
                continue
            pa, pb = a @ axis / norm, b @ axis / norm
            if min(pa.max(), pb.max()) - max(pa.min(), pb.min()) <= tol:
                return False
    return True


def _contains(outer, inner) -> bool:
    """``inner`` is a part of ``outer`` (a legend's title or texts)."""
    return isinstance(outer, Legend) and inner in outer.get_children() + outer.get_texts()


def _count(names: list[str]) -> str:
    seen: dict[str, int] = {}
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    return ", ".join(n if k == 1 else f"{n} (x{k})" for n, k in seen.items())


def _fmt(bb: Bbox) -> str:
    return f"x {bb.x0:.0f}..{bb.x1:.0f}, y {bb.y0:.0f}..{bb.y1:.0f} px"


__all__ = ["problems", "layout_texts", "data_shapes", "tick_labels"]
