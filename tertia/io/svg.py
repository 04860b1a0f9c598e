"""A battle map as a standalone SVG: terrain, units, supplies, objectives (a scenario's, and
a rule set's objectives and vital points) and movement.

The table's origin is its south-west corner with y running north, so the map flips y
to put north at the top. Every piece of text comes from a user's file and is escaped.

>>> from tertia.core.state import GameState, Unit, UnitKind
>>> from tertia.core.terrain import Battlefield
>>> foot = Unit("f1", "roy", UnitKind.FOOT, "centre", 12, 6, 0, 4, 2, name="King's Foot")
>>> state = GameState(("roy", "parl"), 1, "roy", "movement", {"f1": foot})
>>> svg = render_map(Battlefield(24, 12), state, side_names={"roy": "Royalists"})
>>> svg.startswith("<svg") and "King&#x27;s Foot" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from html import escape
from typing import Any

from shapely.geometry import LineString, box
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.ops import substring

from tertia.core.geometry import heading_vector
from tertia.core.narration import default_side_name
from tertia.core.presentation import WAGON, PieceCard, kind_words
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.table_markers import table_markers
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind

Point = tuple[float, float]
Trace = tuple[str, Sequence[Point]]

SIDE_COLOURS: tuple[str, str] = ("#8b1e1e", "#1f3a68")
"""Default colours of the first and second side: a deep red and a navy blue."""

NEUTRAL_COLOUR = "#5b5b5b"
UNHELD = "#7a5c12"
"""The ochre of an objective or point no side holds (its ring and name)."""
INK = "#2b2620"
PAPER = "#f3ecd8"
TABLE_COLOUR = "#e4e2c4"

FONT = "Georgia, 'Palatino Linotype', Palatino, 'Book Antiqua', 'DejaVu Serif', serif"

# Fill, stroke and legend label for each kind of ground.
TERRAIN_STYLE: dict[str, tuple[str, str, str]] = {
    TerrainKind.FIELD: ("#ead9a0", "#b59f5e", "Fields"),
    TerrainKind.BROKEN: ("#d5c7a1", "#9f8e66", "Broken ground"),
    TerrainKind.HILL: ("#d9c596", "#9c8559", "Hill (contour per level)"),
    TerrainKind.MARSH: ("#b7c9a8", "#6f8f76", "Marsh"),
    TerrainKind.LAKE: ("#9dbdd6", "#4f7ea3", "Lake"),
    TerrainKind.WOODS: ("#5d7a45", "#34492a", "Woods"),
    TerrainKind.TOWN: ("#d3c4a8", "#6e5a46", "Town"),
    TerrainKind.RIVER: ("#7aa8cc", "#41729a", "River"),
    TerrainKind.FORD: ("#b8d3e0", "#7d6b4e", "Ford"),
    TerrainKind.BRIDGE: ("#8f6e4c", "#4e3a26", "Bridge"),
    TerrainKind.ROAD: ("#cfb07a", "#a8875a", "Road"),
    TerrainKind.HEDGE: ("#3f5e2c", "#2c4220", "Hedge"),
    TerrainKind.ENTRENCHMENT: ("#8a6b48", "#5c4329", "Entrenchment"),
    TerrainKind.WALL: ("#9a9184", "#5f574b", "Wall"),
    TerrainKind.FENCE: ("#a88a5e", "#6d5535", "Fence"),
    TerrainKind.STREAM: ("#8fb8d6", "#4f7ea3", "Stream"),
    TerrainKind.PLOUGHED: ("#c9ad7f", "#8e7349", "Ploughed field"),
    TerrainKind.ROUGH: ("#cbbf9b", "#928460", "Rough ground"),
}

_OWN_KIND_STYLE = ("#cccccc", "#888888", "")
"""How a kind of ground a rule set adds is drawn: plain grey, named in the legend."""

_DRAW_ORDER = (
    TerrainKind.FIELD, TerrainKind.PLOUGHED, TerrainKind.BROKEN, TerrainKind.ROUGH,
    TerrainKind.HILL, TerrainKind.MARSH, TerrainKind.LAKE, TerrainKind.WOODS, TerrainKind.TOWN,
    TerrainKind.RIVER, TerrainKind.STREAM, TerrainKind.FORD, TerrainKind.BRIDGE, TerrainKind.ROAD,
    TerrainKind.HEDGE, TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.ENTRENCHMENT,
)

_HILL_FILLS = ("#ddcb9e", "#cfb98a", "#c1a877", "#b39766", "#a58757")

_TITLE_WORDS = frozenset({
    "prince", "sir", "lord", "earl", "duke", "marquess", "marquis", "colonel", "col.", "col",
    "general", "major", "captain", "capt.", "lieutenant", "lt.", "king", "the", "of",
})


def _f(v: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def abbreviate(name: str, max_len: int = 16, *, person: bool = False) -> str:
    """A short label for a unit: titles dropped, then the words that fit.

    >>> abbreviate("Prince Rupert's Lifeguard of Horse")
    "Rupert's Horse"
    >>> abbreviate("Sir William Balfour's Horse", 12)
    "Balfour's H."
    >>> abbreviate("Essex's Foot")
    "Essex's Foot"
    >>> abbreviate("Sir Edmund Verney", 12, person=True)
    'Verney'
    """
    name = " ".join(name.split())
    if len(name) <= max_len:
        return name
    words = [w for w in name.split() if w.lower() not in _TITLE_WORDS] or name.split()
    candidates = [" ".join(words)]
    if person:
        candidates.append(words[-1])
    elif len(words) >= 2:
        # The owner's name carries the unit's identity; the last word usually its arm.
        owner = next((w for w in words if w.endswith(("'s", "s'"))), words[0])
        candidates += [f"{owner} {words[-1]}", f"{owner} {words[-1][0]}.", owner]
    for c in candidates:
        if len(c) <= max_len:
            return c
    return candidates[0][: max_len - 1].rstrip() + "…"


class _Canvas:
    """Table inches to SVG user units (pixels at ``scale``), north at the top."""

    def __init__(self, table: Battlefield, scale: float, margin: float) -> None:
        self.table = table
        self.scale = scale
        self.margin = margin
        self.width = table.width * scale + 2 * margin
        self.table_height = table.depth * scale + 2 * margin

    def x(self, x: float) -> float:
        return self.margin + x * self.scale

    def y(self, y: float) -> float:
        return self.margin + (self.table.depth - y) * self.scale

    def pt(self, p: Sequence[float]) -> str:
        return f"{_f(self.x(p[0]))},{_f(self.y(p[1]))}"

    def points(self, pts: Iterable[Sequence[float]]) -> str:
        return " ".join(self.pt(p) for p in pts)

    def length(self, inches: float) -> float:
        return inches * self.scale

    def path(self, geom: Any) -> str:
        """SVG path data for a shapely (multi)polygon, holes included."""
        parts: list[str] = []
        polys = list(getattr(geom, "geoms", [geom]))
        for poly in polys:
            if poly.is_empty or not hasattr(poly, "exterior"):
                continue
            for ring in (poly.exterior, *poly.interiors):
                coords = list(ring.coords)
                if len(coords) >= 3:
                    parts.append("M" + " L".join(self.pt(c) for c in coords) + " Z")
        return " ".join(parts)


def _side_colour_map(state: GameState, side_colours: Mapping[str, str] | None) -> dict[str, str]:
    colours = {side: SIDE_COLOURS[i] for i, side in enumerate(state.sides[:2])}
    if side_colours:
        colours.update(side_colours)
    return colours


def _side_name(side_names: Mapping[str, str], side: str) -> str:
    return side_names.get(side) or default_side_name(side)


def render_map(
    table: Battlefield,
    state: GameState,
    *,
    side_names: Mapping[str, str],
    traces: Iterable[Trace] = (),
    scale: float = 12.0,
    side_colours: Mapping[str, str] | None = None,
    show_removed: bool | Collection[str] = False,
    legend: bool = True,
    map_id: str = "map",
    title: str | None = None,
    standalone: bool = True,
    pieces: Mapping[str, PieceCard] | None = None,
    points: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The table and everything on it as an ``<svg>`` element (a string).

    ``points`` are a rule set's objectives and vital points as its presentation's summary
    gives them (``side``, ``kind``, ``name``, ``x``, ``y``, ``held_by``): each is drawn above
    the pieces, a flag (an objective) or a diamond (a vital point) in its side's colour,
    ringed in the colour of the side holding it, with its name.

    ``pieces`` are what each piece shows (the rule set's
    :class:`~tertia.core.presentation.PieceCard`): its facts in its tooltip, a count
    the rule set draws on the base as pips, its badges' marks beside it.

    ``traces`` are (unit id, path) pairs drawn as dashed lines with an arrowhead in the
    unit's side colour. ``show_removed`` draws removed units faded: all of them when
    ``True``, or those whose ids it holds. ``map_id`` prefixes the ids of patterns, so
    several maps can share one HTML page; ``standalone=False`` leaves out the XML
    namespace declaration, which an SVG inside HTML does not need.
    """
    margin = max(24.0, 2.4 * scale)
    canvas = _Canvas(table, scale, margin)
    colours = _side_colour_map(state, side_colours)
    pid = "".join(c if c.isalnum() or c in "-_" else "-" for c in map_id) or "map"
    font_px = max(8.0, 0.7 * scale)

    body: list[str] = []
    body.append(_defs(pid, scale))
    body.append(
        f'<rect x="{_f(margin)}" y="{_f(margin)}" width="{_f(canvas.length(table.width))}" '
        f'height="{_f(canvas.length(table.depth))}" fill="{TABLE_COLOUR}"/>'
    )
    body.append(_grid(canvas, font_px))
    body.append(_terrain(canvas, table, pid, font_px))
    body.append(_objectives(canvas, state, colours, side_names, font_px))
    body.append(_table_markers(canvas, state, colours, side_names))
    body.append(_traces(canvas, state, traces, colours))
    shown = pieces or {}
    body.append(_units(canvas, state, colours, side_names, show_removed, font_px, shown))
    body.append(_points(canvas, points, colours, side_names, font_px))
    body.append(
        f'<rect x="{_f(margin)}" y="{_f(margin)}" width="{_f(canvas.length(table.width))}" '
        f'height="{_f(canvas.length(table.depth))}" fill="none" stroke="{INK}" stroke-width="1.5"/>'
    )
    body.append(_compass(canvas, font_px))

    height = canvas.table_height
    if legend:
        legend_svg, legend_height = _legend(canvas, table, state, colours, side_names, pid, font_px, shown,
                                            {str(p.get("kind")) for p in points})
        body.append(legend_svg)
        height += legend_height

    width = canvas.width
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    label = escape(title or "Battle map")
    return (
        f'<svg{ns} class="battle-map" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" role="img" aria-label="{label}" '
        f'font-family="{escape(FONT)}">'
        f"<title>{label}</title>"
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="{PAPER}"/>'
        + "".join(body)
        + "</svg>"
    )


# --- pieces ------------------------------------------------------------------------------


def _defs(pid: str, scale: float) -> str:
    s = max(6.0, scale * 0.9)
    return (
        "<defs>"
        f'<pattern id="{pid}-woods" width="{_f(s * 1.6)}" height="{_f(s * 1.4)}" '
        'patternUnits="userSpaceOnUse">'
        f'<circle cx="{_f(s * 0.4)}" cy="{_f(s * 0.4)}" r="{_f(s * 0.32)}" fill="#3f5a30" '
        'fill-opacity="0.75"/>'
        f'<circle cx="{_f(s * 1.2)}" cy="{_f(s * 1.05)}" r="{_f(s * 0.28)}" fill="#46653a" '
        'fill-opacity="0.75"/>'
        "</pattern>"
        f'<pattern id="{pid}-field" width="{_f(s * 0.6)}" height="{_f(s * 0.6)}" '
        'patternUnits="userSpaceOnUse" patternTransform="rotate(35)">'
        f'<line x1="0" y1="0" x2="0" y2="{_f(s * 0.6)}" stroke="#c9b474" stroke-width="0.8"/>'
        "</pattern>"
        f'<pattern id="{pid}-broken" width="{_f(s)}" height="{_f(s)}" patternUnits="userSpaceOnUse">'
        f'<circle cx="{_f(s * 0.25)}" cy="{_f(s * 0.3)}" r="1.1" fill="#8f7d56"/>'
        f'<circle cx="{_f(s * 0.7)}" cy="{_f(s * 0.75)}" r="0.9" fill="#8f7d56"/>'
        "</pattern>"
        f'<pattern id="{pid}-marsh" width="{_f(s * 1.2)}" height="{_f(s * 0.8)}" '
        'patternUnits="userSpaceOnUse">'
        f'<path d="M{_f(s * 0.2)},{_f(s * 0.5)} h{_f(s * 0.5)} M{_f(s * 0.35)},{_f(s * 0.5)} '
        f'v-{_f(s * 0.25)} M{_f(s * 0.5)},{_f(s * 0.5)} v-{_f(s * 0.32)}" '
        'stroke="#4f7a6a" stroke-width="0.9" fill="none"/>'
        "</pattern>"
        f'<pattern id="{pid}-ford" width="{_f(s * 0.5)}" height="{_f(s * 0.5)}" '
        'patternUnits="userSpaceOnUse" patternTransform="rotate(90)">'
        f'<line x1="0" y1="0" x2="0" y2="{_f(s * 0.5)}" stroke="#e9f1f4" stroke-width="1.2"/>'
        "</pattern>"
        "</defs>"
    )


def _grid(canvas: _Canvas, font_px: float) -> str:
    """Faint 6-inch grid with ticks and inch labels along the table edges."""
    t = canvas.table
    out: list[str] = ['<g class="grid">']
    tick = max(4.0, canvas.scale * 0.45)
    small = font_px * 0.85
    left, right = canvas.x(0), canvas.x(t.width)
    top, bottom = canvas.y(t.depth), canvas.y(0)
    lines: list[str] = []
    ticks: list[str] = []
    labels: list[str] = []
    for i in range(0, int(t.width) + 1, 6):
        x = canvas.x(i)
        if 0 < i < t.width:
            lines.append(f"M{_f(x)},{_f(top)} V{_f(bottom)}")
        ticks.append(f"M{_f(x)},{_f(top)} v-{_f(tick)} M{_f(x)},{_f(bottom)} v{_f(tick)}")
        if i % 12 == 0:
            labels.append(
                f'<text x="{_f(x)}" y="{_f(bottom + tick + small + 1)}" text-anchor="middle">{i}"</text>'
            )
    for j in range(0, int(t.depth) + 1, 6):
        y = canvas.y(j)
        if 0 < j < t.depth:
            lines.append(f"M{_f(left)},{_f(y)} H{_f(right)}")
        ticks.append(f"M{_f(left)},{_f(y)} h-{_f(tick)} M{_f(right)},{_f(y)} h{_f(tick)}")
        if j % 12 == 0:
            labels.append(
                f'<text x="{_f(left - tick - 2)}" y="{_f(y + small * 0.35)}" '
                f'text-anchor="end">{j}"</text>'
            )
    out.append(
        f'<path d="{" ".join(lines)}" stroke="{INK}" stroke-opacity="0.08" stroke-width="0.8" '
        'fill="none"/>'
    )
    out.append(f'<path d="{" ".join(ticks)}" stroke="{INK}" stroke-width="0.9" fill="none"/>')
    out.append(
        f'<g font-size="{_f(small)}" fill="{INK}" fill-opacity="0.75">' + "".join(labels) + "</g>"
    )
    out.append("</g>")
    return "".join(out)


def _compass(canvas: _Canvas, font_px: float) -> str:
    """A small north arrow in the top-right margin."""
    x = canvas.x(canvas.table.width) + canvas.margin * 0.5
    y = canvas.margin * 0.5
    r = min(canvas.margin * 0.32, 9.0)
    return (
        f'<g class="compass" transform="translate({_f(x)},{_f(y + r * 0.6)})">'
        f'<path d="M0,{_f(-r)} L{_f(r * 0.45)},{_f(r * 0.6)} L0,{_f(r * 0.25)} '
        f'L{_f(-r * 0.45)},{_f(r * 0.6)} Z" fill="{INK}"/>'
        f'<text x="0" y="{_f(-r - 2)}" text-anchor="middle" font-size="{_f(font_px * 0.85)}" '
        f'font-weight="bold" fill="{INK}">N</text></g>'
    )


def _terrain(canvas: _Canvas, table: Battlefield, pid: str, font_px: float) -> str:
    out: list[str] = ['<g class="terrain">']
    names: list[str] = []
    order: dict[str, int] = {k: i for i, k in enumerate(_DRAW_ORDER)}
    features = sorted(
        table.features, key=lambda f: (order.get(f.kind, 99), f.height if f.kind is TerrainKind.HILL else 0)
    )
    for f in features:
        out.append(_feature(canvas, f, pid))
        if f.name:
            names.append(_feature_name(canvas, f, font_px))
    out.append("</g>")
    out.append(
        f'<g class="terrain-names" font-size="{_f(font_px * 0.95)}" font-style="italic" '
        f'fill="{INK}" text-anchor="middle">' + "".join(names) + "</g>"
    )
    return "".join(out)


def _feature(canvas: _Canvas, f: TerrainFeature, pid: str) -> str:
    fill, stroke, _ = TERRAIN_STYLE.get(f.kind, _OWN_KIND_STYLE)
    kind = escape(str(f.kind))
    if f.is_linear:
        return _linear_feature(canvas, f, fill, stroke, kind)
    d = canvas.path(f.geometry)
    if not d:
        return ""
    base = f'<path class="terrain {kind}" d="{d}"'
    if f.kind is TerrainKind.WOODS:
        return (
            f'{base} fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>'
            f'<path d="{d}" fill="url(#{pid}-woods)"/>'
        )
    if f.kind is TerrainKind.FIELD:
        edge = (
            f'stroke="{TERRAIN_STYLE[TerrainKind.HEDGE][0]}" '
            f'stroke-width="{_f(max(2.5, canvas.scale * 0.3))}" stroke-dasharray="2 2.5" '
            'stroke-linecap="round" stroke-linejoin="round"'
            if f.hedged
            else f'stroke="{stroke}" stroke-width="0.8"'
        )
        return f'{base} fill="{fill}"/><path d="{d}" fill="url(#{pid}-field)" {edge}/>'
    if f.kind is TerrainKind.BROKEN:
        return (
            f'{base} fill="{fill}" stroke="{stroke}" stroke-width="0.8" stroke-dasharray="4 2"/>'
            f'<path d="{d}" fill="url(#{pid}-broken)"/>'
        )
    if f.kind is TerrainKind.MARSH:
        return (
            f'{base} fill="{fill}" stroke="{stroke}" stroke-width="0.8" stroke-dasharray="2 2"/>'
            f'<path d="{d}" fill="url(#{pid}-marsh)"/>'
        )
    if f.kind is TerrainKind.HILL:
        return _hill(canvas, f, d)
    if f.kind is TerrainKind.TOWN:
        return f'{base} fill="{fill}" stroke="{stroke}" stroke-width="1"/>' + _town_blocks(canvas, f)
    if f.kind is TerrainKind.FORD:
        return (
            f'{base} fill="{fill}"/><path d="{d}" fill="url(#{pid}-ford)" stroke="{stroke}" '
            'stroke-width="1.2" stroke-dasharray="3 2"/>'
        )
    if f.kind is TerrainKind.ENTRENCHMENT:
        return (
            f'{base} fill="{fill}" fill-opacity="0.55" stroke="{stroke}" stroke-width="1.6"/>'
        )
    return f'{base} fill="{fill}" stroke="{stroke}" stroke-width="1"/>'


def _linear_feature(canvas: _Canvas, f: TerrainFeature, fill: str, stroke: str, kind: str) -> str:
    pts = canvas.points(f.line)
    w = max(1.5, canvas.length(f.width))
    common = f'points="{pts}" fill="none" stroke-linejoin="round"'
    if f.kind is TerrainKind.RIVER:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{stroke}" stroke-width="{_f(w + 2)}"/>'
            f'<polyline {common} stroke="{fill}" stroke-width="{_f(w)}"/>'
            f'<polyline {common} stroke="#b9d4e6" stroke-width="{_f(max(0.6, w * 0.12))}" '
            'stroke-dasharray="6 9" stroke-opacity="0.8"/>'
        )
    if f.kind is TerrainKind.ROAD:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{stroke}" stroke-width="{_f(w + 1.5)}"/>'
            f'<polyline {common} stroke="{fill}" stroke-width="{_f(w)}"/>'
        )
    if f.kind is TerrainKind.HEDGE:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{fill}" stroke-width="{_f(max(2.5, w))}" '
            f'stroke-linecap="round" stroke-dasharray="{_f(max(2.0, w * 0.8))} {_f(max(1.5, w * 0.5))}"/>'
        )
    if f.kind is TerrainKind.ENTRENCHMENT:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{stroke}" stroke-width="{_f(w + 1)}"/>'
            f'<polyline {common} stroke="{fill}" stroke-width="{_f(w * 0.6)}" '
            'stroke-dasharray="3 2"/>'
        )
    if f.kind is TerrainKind.BRIDGE:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{stroke}" stroke-width="{_f(w + 2)}" '
            'stroke-linecap="butt"/>'
            f'<polyline {common} stroke="{fill}" stroke-width="{_f(w)}" stroke-linecap="butt"/>'
        )
    if f.kind is TerrainKind.FORD:
        return (
            f'<polyline class="terrain {kind}" {common} stroke="{fill}" stroke-width="{_f(w)}"/>'
            f'<polyline {common} stroke="{stroke}" stroke-width="1" stroke-dasharray="3 2"/>'
        )
    # Any other kind given as a line: draw its buffered area.
    d = canvas.path(f.geometry)
    return f'<path class="terrain {kind}" d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>'


def _hill(canvas: _Canvas, f: TerrainFeature, d: str) -> str:
    level = max(1, min(f.height, len(_HILL_FILLS)))
    stroke = TERRAIN_STYLE[TerrainKind.HILL][1]
    out = [
        f'<path class="terrain hill" d="{d}" fill="{_HILL_FILLS[level - 1]}" stroke="{stroke}" '
        'stroke-width="1"/>'
    ]
    # One inner contour per level above the first, drawn 0.8" in from the last.
    geom = f.geometry
    for k in range(1, f.height):
        inner = geom.buffer(-0.8 * k, join_style="round")
        if inner.is_empty:
            break
        out.append(
            f'<path d="{canvas.path(inner)}" fill="{_HILL_FILLS[min(level - 1, k)]}" '
            f'fill-opacity="0.55" stroke="{stroke}" stroke-width="0.8" stroke-opacity="0.8"/>'
        )
    return "".join(out)


def _town_blocks(canvas: _Canvas, f: TerrainFeature) -> str:
    """Small building blocks laid in staggered rows inside a town's outline."""
    geom = f.geometry
    minx, miny, maxx, maxy = geom.bounds
    blocks: list[str] = []
    bw, bd, gap = 1.1, 0.8, 0.45
    row = 0
    y = miny + gap
    while y + bd <= maxy and len(blocks) < 600:
        x = minx + gap + (0.6 if row % 2 else 0.0)
        while x + bw <= maxx:
            if geom.contains(box(x, y, x + bw, y + bd)):
                blocks.append(
                    f'<rect x="{_f(canvas.x(x))}" y="{_f(canvas.y(y + bd))}" '
                    f'width="{_f(canvas.length(bw))}" height="{_f(canvas.length(bd))}"/>'
                )
            x += bw + gap
        y += bd + gap
        row += 1
    if not blocks:
        c = geom.representative_point()
        blocks.append(
            f'<rect x="{_f(canvas.x(c.x - bw / 2))}" y="{_f(canvas.y(c.y + bd / 2))}" '
            f'width="{_f(canvas.length(bw))}" height="{_f(canvas.length(bd))}"/>'
        )
    return '<g fill="#7d6650" stroke="#5a4636" stroke-width="0.5">' + "".join(blocks) + "</g>"


def _feature_name(canvas: _Canvas, f: TerrainFeature, font_px: float) -> str:
    if f.is_linear:
        line = f.line
        mid = len(line) // 2
        a, b = line[max(0, mid - 1)], line[mid] if len(line) > 1 else line[0]
        x, y = (a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0
        offset = f.width / 2.0 + 0.9
        y += offset
    else:
        p = f.geometry.representative_point()
        x, y = p.x, p.y
    return (
        f'<text x="{_f(canvas.x(x))}" y="{_f(canvas.y(y))}" stroke="{PAPER}" stroke-width="2.5" '
        f'stroke-opacity="0.7" paint-order="stroke">{escape(f.name)}</text>'
    )


def _objectives(
    canvas: _Canvas,
    state: GameState,
    colours: Mapping[str, str],
    side_names: Mapping[str, str],
    font_px: float,
) -> str:
    out: list[str] = ['<g class="objectives">']
    for o in state.objectives:
        cx, cy, r = canvas.x(o.x), canvas.y(o.y), canvas.length(o.radius)
        colour = colours.get(o.taken_by, UNHELD) if o.taken_by else UNHELD
        fill = f'fill="{colour}" fill-opacity="0.12"' if o.taken_by else 'fill="none"'
        label = o.name
        if o.taken_by:
            label += f" (taken by {_side_name(side_names, o.taken_by)})"
        out.append(
            f'<circle class="objective" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" {fill} '
            f'stroke="{colour}" stroke-width="1.6" stroke-dasharray="6 4"/>'
            f'<text x="{_f(cx)}" y="{_f(cy - r - 3)}" text-anchor="middle" font-size="{_f(font_px)}" '
            f'font-weight="bold" fill="{colour}" stroke="{PAPER}" stroke-width="2.5" '
            f'paint-order="stroke">{escape(label)}</text>'
        )
    out.append("</g>")
    return "".join(out)


POINT_KINDS = {"objective": "Objective", "vital": "Vital point"}
"""The kinds of point a rule set's summary gives, by the words the map's key uses."""


def _point_mark(kind: str, cx: float, cy: float, size: float, colour: str) -> str:
    """A point's mark centred on (cx, cy): a diamond for a vital point, else a flag."""
    h = size / 2
    if kind == "vital":
        return (f'<path d="M{_f(cx)},{_f(cy - h)} L{_f(cx + h)},{_f(cy)} L{_f(cx)},{_f(cy + h)} '
                f'L{_f(cx - h)},{_f(cy)} Z" fill="{colour}" stroke="{INK}" stroke-width="0.8"/>')
    return (f'<path d="M{_f(cx - h * 0.2)},{_f(cy + h)} V{_f(cy - h)} L{_f(cx + h)},{_f(cy - h * 0.6)} '
            f'L{_f(cx - h * 0.2)},{_f(cy - h * 0.2)}" fill="{colour}" stroke="{INK}" stroke-width="0.8"/>')


def _points(
    canvas: _Canvas,
    points: Sequence[Mapping[str, Any]],
    colours: Mapping[str, str],
    side_names: Mapping[str, str],
    font_px: float,
) -> str:
    """A rule set's objectives and vital points above the pieces (see :func:`render_map`);
    a place both sides mark is named once."""
    out: list[str] = ['<g class="points">']
    named: set[tuple[str, float, float]] = set()
    for p in points:
        side, kind, name = str(p.get("side")), str(p.get("kind")), str(p.get("name"))
        held = p.get("held_by")
        cx, cy = canvas.x(float(p["x"])), canvas.y(float(p["y"]))
        ring = colours.get(str(held), NEUTRAL_COLOUR) if held else UNHELD
        holder = f"held by {_side_name(side_names, str(held))}" if held else "held by neither side"
        title = f"{POINT_KINDS.get(kind, kind)} of {_side_name(side_names, side)}: {name}, {holder}"
        size = max(8.0, canvas.length(1.0))
        out.append(
            f'<g class="point {escape(kind)}"><title>{escape(title)}</title>'
            f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(size * 1.1)}" fill="{ring if held else "none"}" '
            f'fill-opacity="0.25" stroke="{ring}" stroke-width="1.2"'
            + ('' if held else ' stroke-dasharray="3 2"') + '/>'
            + _point_mark(kind, cx, cy, size, colours.get(side, NEUTRAL_COLOUR))
        )
        if (name, float(p["x"]), float(p["y"])) not in named:
            named.add((name, float(p["x"]), float(p["y"])))
            out.append(
                f'<text x="{_f(cx)}" y="{_f(cy + size * 1.1 + font_px)}" text-anchor="middle" '
                f'font-size="{_f(font_px)}" font-weight="bold" fill="{ring}" stroke="{PAPER}" '
                f'stroke-width="2.5" paint-order="stroke">{escape(name)}</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def _table_markers(
    canvas: _Canvas, state: GameState, colours: Mapping[str, str], side_names: Mapping[str, str]
) -> str:
    """The rule set's markers (supply bases ...): a base in its side's colour, crossed out
    and faded once taken; its title names it as players call it (else by its kind and
    side) and whoever took it, a side or a unit, by the battle's names."""
    out: list[str] = ['<g class="table-markers">']
    for m in table_markers(state, side_names):
        colour = colours.get(m.side, NEUTRAL_COLOUR) if m.side else NEUTRAL_COLOUR
        corners = m.base.corners()
        whose = f" of {_side_name(side_names, m.side)}" if m.side else ""
        tip = m.name or f"{m.label}{whose}"
        taker = m.taker(state, side_names)
        if taker is not None:
            tip += f", taken by {taker}"
        faded = ' opacity="0.45"' if m.taken_by else ""
        out.append(
            f'<g class="{escape(m.kind)}"{faded}><title>{escape(tip)}</title>'
            f'<polygon points="{canvas.points(corners)}" fill="#f6edd5" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        cx, cy = canvas.x(m.x), canvas.y(m.y)
        r = canvas.length(min(m.width, m.depth)) * 0.22
        out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="{colour}"/>')
        if m.taken_by:
            (ax, ay), (bx, by), (cx2, cy2), (dx, dy) = corners
            out.append(
                f'<path d="M{canvas.pt((ax, ay))} L{canvas.pt((cx2, cy2))} '
                f'M{canvas.pt((bx, by))} L{canvas.pt((dx, dy))}" stroke="{INK}" stroke-width="1.5"/>'
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def _traces(
    canvas: _Canvas, state: GameState, traces: Iterable[Trace], colours: Mapping[str, str]
) -> str:
    out: list[str] = ['<g class="traces" fill="none">']
    head = max(4.0, canvas.scale * 0.45)
    for unit_id, path in traces:
        pts = [(float(p[0]), float(p[1])) for p in path]
        if len(pts) < 2 or all(math.dist(pts[0], p) < 1e-6 for p in pts):
            continue
        unit = state.units.get(unit_id)
        colour = colours.get(unit.side, NEUTRAL_COLOUR) if unit else NEUTRAL_COLOUR
        if unit is not None and unit.in_play:
            pts = _clip_at_base(pts, unit)
        out.append(
            f'<polyline class="trace" data-unit="{escape(unit_id)}" points="{canvas.points(pts)}" '
            f'stroke="{colour}" stroke-width="1.3" stroke-dasharray="5 3" stroke-opacity="0.9"/>'
        )
        sx, sy = canvas.x(pts[0][0]), canvas.y(pts[0][1])
        out.append(
            f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="2" fill="{PAPER}" stroke="{colour}" '
            'stroke-width="1"/>'
        )
        # Arrowhead along the last segment of non-zero length.
        end = pts[-1]
        prev = next(p for p in reversed(pts[:-1]) if math.dist(p, end) > 1e-6)
        ex, ey = canvas.x(end[0]), canvas.y(end[1])
        px, py = canvas.x(prev[0]), canvas.y(prev[1])
        ang = math.atan2(ey - py, ex - px)
        left = (ex - head * math.cos(ang - 0.45), ey - head * math.sin(ang - 0.45))
        right = (ex - head * math.cos(ang + 0.45), ey - head * math.sin(ang + 0.45))
        out.append(
            f'<polygon points="{_f(ex)},{_f(ey)} {_f(left[0])},{_f(left[1])} '
            f'{_f(right[0])},{_f(right[1])}" fill="{colour}" fill-opacity="0.9"/>'
        )
    out.append("</g>")
    return "".join(out)


def _clip_at_base(pts: list[Point], unit: Unit) -> list[Point]:
    """End a trace where it meets the base of the unit standing at its end, so the
    arrowhead shows instead of hiding under the base."""
    base = ShapelyPolygon(unit.base.corners())
    if not base.covers(ShapelyPoint(pts[-1])):
        return pts
    line = LineString(pts)
    crossings = line.intersection(base.exterior)
    points = [g for g in getattr(crossings, "geoms", [crossings]) if not g.is_empty]
    if not points:
        return pts
    enter = max(line.project(ShapelyPoint(p.coords[0])) for p in points)
    if enter < 0.3:
        return pts
    part = substring(line, 0.0, enter)
    return [(float(x), float(y)) for x, y in part.coords]


def _local(u: Unit, right: float, forward: float) -> Point:
    """A point given in a unit's own frame (inches right of and ahead of its centre)."""
    fx, fy = heading_vector(u.facing)
    rx, ry = fy, -fx
    return (u.x + rx * right + fx * forward, u.y + ry * right + fy * forward)


def _units(
    canvas: _Canvas,
    state: GameState,
    colours: Mapping[str, str],
    side_names: Mapping[str, str],
    show_removed: bool | Collection[str],
    font_px: float,
    pieces: Mapping[str, PieceCard],
) -> str:
    out: list[str] = ['<g class="units">']
    labels: list[str] = []
    # Troops first, commanders on top; removed pieces (when shown) beneath both.
    ordered = sorted(
        state.units.values(), key=lambda u: (u.removed is None, u.is_commander, u.id)
    )
    for u in ordered:
        if u.removed is not None:
            shown = show_removed if isinstance(show_removed, bool) else u.id in show_removed
            if not shown:
                continue
        colour = colours.get(u.side, NEUTRAL_COLOUR)
        out.append(_unit(canvas, u, colour, side_names, pieces.get(u.id)))
        if u.removed is None:
            labels.append(_unit_label(canvas, u, font_px))
    out.append("</g>")
    out.append(
        f'<g class="unit-labels" font-size="{_f(font_px)}" text-anchor="middle" fill="#fffaf0" '
        f'stroke="{INK}" stroke-width="2.2" stroke-linejoin="round" paint-order="stroke">'
        + "".join(labels)
        + "</g>"
    )
    return "".join(out)


def _unit_tooltip(u: Unit, side_names: Mapping[str, str], card: PieceCard | None) -> str:
    kind = card.kind_label if card is not None else kind_words(u)
    bits = [f"{u.label} ({_side_name(side_names, u.side)}, {kind})"]
    if card is not None:
        bits += card.lines()
    if u.removed:
        bits.append(f"removed: {u.removed.replace('_', ' ')}")
    return "; ".join(bits)


def _base_count(card: PieceCard | None) -> int:
    """The count a rule set draws on the base (hits, figures ...), 0 for none."""
    counted = None if card is None else card.base_count()
    return max(0, counted[0].value) if counted is not None and isinstance(counted[0].value, int) else 0


def _unit(
    canvas: _Canvas, u: Unit, colour: str, side_names: Mapping[str, str], card: PieceCard | None
) -> str:
    corners = u.base.corners()
    removed = u.removed is not None
    cls = "unit commander" if u.is_commander else "unit"
    attrs = f'class="{cls}{" removed" if removed else ""}" data-unit="{escape(u.id)}"'
    if removed:
        attrs += ' opacity="0.3"'
    out = [f"<g {attrs}><title>{escape(_unit_tooltip(u, side_names, card))}</title>"]
    dash = ' stroke-dasharray="3 2"' if removed else ""
    if u.is_commander:
        out.append(
            f'<polygon points="{canvas.points(corners)}" fill="#f6edd5" stroke="{colour}" '
            f'stroke-width="1.6"{dash}/>'
        )
        cx, cy = canvas.x(u.x), canvas.y(u.y)
        r = canvas.length(min(u.width, u.depth)) * 0.42
        out.append(_star(cx, cy, r, colour))
    else:
        out.append(
            f'<polygon points="{canvas.points(corners)}" fill="{colour}" stroke="{INK}" '
            f'stroke-width="0.9"{dash}/>'
        )
        out.append(_kind_symbol(canvas, u, card is not None and card.mark == WAGON))
    # The front edge, picked out so the facing reads at a glance.
    fl, fr = corners[0], corners[1]
    out.append(
        f'<line x1="{_f(canvas.x(fl[0]))}" y1="{_f(canvas.y(fl[1]))}" x2="{_f(canvas.x(fr[0]))}" '
        f'y2="{_f(canvas.y(fr[1]))}" class="front" stroke="#f1d27a" '
        f'stroke-width="{_f(max(1.8, canvas.scale * 0.2))}" stroke-linecap="butt"/>'
    )
    count = _base_count(card)
    if count and not removed:
        out.append(_hit_pips(canvas, u, count))
    marks = [] if card is None else card.base_marks()
    if marks and not removed:
        out.append(_marks(canvas, u, marks))
    if removed:
        a, _, c, _ = corners
        b, d = corners[1], corners[3]
        out.append(
            f'<path d="M{canvas.pt(a)} L{canvas.pt(c)} M{canvas.pt(b)} L{canvas.pt(d)}" '
            f'stroke="{INK}" stroke-width="1.2"/>'
        )
    out.append("</g>")
    return "".join(out)


def _kind_symbol(canvas: _Canvas, u: Unit, wagon: bool = False) -> str:
    """A faint troop-type mark inside the base: X foot, / horse, both for dragoons, a ball
    for artillery, a small x for commanded shot, a wagon bed for a piece its rule set
    draws as a wagon (:data:`~tertia.core.presentation.WAGON`)."""
    hw, hd = u.width / 2.0 * 0.86, u.depth / 2.0 * 0.7
    if wagon:
        bed = [_local(u, -hw * 0.7, hd * 0.5), _local(u, hw * 0.7, hd * 0.5),
               _local(u, hw * 0.7, -hd * 0.5), _local(u, -hw * 0.7, -hd * 0.5)]
        return f'<polygon class="baggage" points="{canvas.points(bed)}" fill="#fffaf0" fill-opacity="0.45"/>'
    fl, fr = _local(u, -hw, hd), _local(u, hw, hd)
    rl, rr = _local(u, -hw, -hd), _local(u, hw, -hd)
    segs: list[tuple[Point, Point]] = []
    if u.kind is UnitKind.FOOT:
        segs = [(rl, fr), (fl, rr)]
    elif u.kind is UnitKind.HORSE:
        segs = [(rl, fr)]
    elif u.kind is UnitKind.DRAGOONS:
        segs = [(rl, fr), (fl, rr)]
    elif u.kind is UnitKind.COMMANDED_SHOT:
        q = 0.5
        segs = [
            (_local(u, -hw * q, -hd * q), _local(u, hw * q, hd * q)),
            (_local(u, -hw * q, hd * q), _local(u, hw * q, -hd * q)),
        ]
    d = " ".join(f"M{canvas.pt(a)} L{canvas.pt(b)}" for a, b in segs)
    out = ""
    if d:
        out += f'<path d="{d}" stroke="#fffaf0" stroke-opacity="0.35" stroke-width="1"/>'
    if u.kind is UnitKind.DRAGOONS:
        out += (
            f'<path d="M{canvas.pt(rl)} L{canvas.pt(rr)}" stroke="#fffaf0" stroke-opacity="0.35" '
            'stroke-width="2"/>'
        )
    if u.kind is UnitKind.ARTILLERY:
        out += (
            f'<circle cx="{_f(canvas.x(u.x))}" cy="{_f(canvas.y(u.y))}" '
            f'r="{_f(canvas.length(min(u.depth, u.width)) * 0.22)}" fill="#fffaf0" '
            'fill-opacity="0.45"/>'
        )
    return out


def _marks(canvas: _Canvas, u: Unit, marks: Sequence[tuple[str, str]]) -> str:
    """A rule set's short marks (a badge, a formation) in a row just behind the base, each
    with its words on hover."""
    size = max(7.0, canvas.length(0.55))
    step = size * 1.5
    bx, by = _local(u, 0.0, -u.depth / 2.0 - 0.45)
    x0 = canvas.x(bx) - step * (len(marks) - 1) / 2.0
    parts = []
    for i, (glyph, words) in enumerate(marks):
        x = x0 + i * step
        parts.append(
            f'<g class="mark"><title>{escape(words)}</title>'
            f'<rect x="{_f(x - size * 0.7)}" y="{_f(canvas.y(by) - size * 0.6)}" width="{_f(size * 1.4)}" '
            f'height="{_f(size * 1.2)}" rx="2" fill="#fffaf0" stroke="{INK}" stroke-width="0.6"/>'
            f'<text x="{_f(x)}" y="{_f(canvas.y(by) + size * 0.35)}" font-size="{_f(size)}" '
            f'text-anchor="middle" fill="{INK}">{escape(glyph)}</text></g>'
        )
    return '<g class="marks">' + "".join(parts) + "</g>"


def _hit_pips(canvas: _Canvas, u: Unit, count: int) -> str:
    """A count the rule set draws on the base (hits) as white pips along the rear edge,
    or a number when there are too many."""
    r_in = min(0.22, u.depth * 0.18)
    spacing = r_in * 2.6
    fits = count <= 6 and spacing * count <= u.width * 0.9
    forward = -u.depth / 2.0 + r_in + 0.1
    r = canvas.length(r_in)
    if fits:
        pips = []
        for i in range(count):
            px, py = _local(u, (i - (count - 1) / 2.0) * spacing, forward)
            pips.append(f'<circle cx="{_f(canvas.x(px))}" cy="{_f(canvas.y(py))}" r="{_f(r)}"/>')
        return (
            f'<g class="hits" fill="#fffaf0" stroke="{INK}" stroke-width="0.8">'
            + "".join(pips)
            + "</g>"
        )
    px, py = _local(u, u.width / 2.0 - 0.45, forward)
    size = max(7.0, r * 2.6)
    return (
        f'<g class="hits"><circle cx="{_f(canvas.x(px))}" cy="{_f(canvas.y(py))}" '
        f'r="{_f(size * 0.65)}" fill="#fffaf0" stroke="{INK}" stroke-width="0.8"/>'
        f'<text x="{_f(canvas.x(px))}" y="{_f(canvas.y(py) + size * 0.35)}" font-size="{_f(size)}" '
        f'text-anchor="middle" fill="{INK}">{count}</text></g>'
    )


def _star(cx: float, cy: float, r: float, colour: str) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.pi / 5 * i - math.pi / 2
        pts.append(f"{_f(cx + rad * math.cos(a))},{_f(cy + rad * math.sin(a))}")
    return f'<polygon points="{" ".join(pts)}" fill="{colour}"/>'


def _unit_label(canvas: _Canvas, u: Unit, font_px: float) -> str:
    if u.is_commander:
        text = abbreviate(u.label, 14, person=True)
    else:
        # As many characters as fit across the base (serif capitals run ~0.55 em).
        fits = int(canvas.length(u.width) / (font_px * 0.52))
        text = abbreviate(u.label, max(6, fits))
    x, y = canvas.x(u.x), canvas.y(u.y)
    if u.is_commander:
        # Commanders' names sit just beside the base so the star stays visible.
        y += canvas.length(max(u.depth, u.width) / 2.0) + font_px * 0.9
        return f'<text x="{_f(x)}" y="{_f(y)}" font-style="italic">{escape(text)}</text>'
    return f'<text x="{_f(x)}" y="{_f(y + font_px * 0.35)}">{escape(text)}</text>'


def _counted_label(pieces: Mapping[str, PieceCard]) -> str | None:
    """The label of the count drawn on bases, when any piece shows one."""
    for card in pieces.values():
        counted = card.base_count()
        if counted is not None and _base_count(card):
            return counted[1].label
    return None


def _legend(
    canvas: _Canvas,
    table: Battlefield,
    state: GameState,
    colours: Mapping[str, str],
    side_names: Mapping[str, str],
    pid: str,
    font_px: float,
    pieces: Mapping[str, PieceCard],
    point_kinds: Collection[str] = (),
) -> tuple[str, float]:
    """A key below the table: the sides, then the kinds of piece, point and ground on this
    map."""
    items: list[tuple[str, str]] = []  # (swatch svg at origin, label)
    sw, sh = 22.0, 12.0
    for side in state.sides:
        c = colours.get(side, NEUTRAL_COLOUR)
        items.append((
            f'<rect width="{_f(sw)}" height="{_f(sh)}" fill="{c}" stroke="{INK}" stroke-width="0.8"/>'
            f'<line x1="0" y1="0.9" x2="{_f(sw)}" y2="0.9" stroke="#f1d27a" stroke-width="1.8"/>',
            f"{_side_name(side_names, side)} (front edge light)",
        ))
    kinds = {u.kind for u in state.units.values()}
    if UnitKind.COMMANDER in kinds:
        items.append((
            f'<rect width="{_f(sh)}" height="{_f(sh)}" x="{_f((sw - sh) / 2)}" fill="#f6edd5" '
            f'stroke="{INK}" stroke-width="1"/>' + _star(sw / 2, sh / 2, sh * 0.4, INK),
            "Commander",
        ))
    counted = _counted_label(pieces)
    if counted is not None:
        items.append((
            f'<rect width="{_f(sw)}" height="{_f(sh)}" fill="{NEUTRAL_COLOUR}"/>'
            f'<circle cx="{_f(sw / 2 - 3.5)}" cy="{_f(sh - 3.5)}" r="2.2" fill="#fffaf0" stroke="{INK}" '
            f'stroke-width="0.6"/><circle cx="{_f(sw / 2 + 3.5)}" cy="{_f(sh - 3.5)}" r="2.2" '
            f'fill="#fffaf0" stroke="{INK}" stroke-width="0.6"/>',
            counted,
        ))
    for label in dict.fromkeys(m.label for m in table_markers(state)):
        items.append((
            f'<rect width="{_f(sh)}" height="{_f(sh * 0.7)}" x="{_f((sw - sh) / 2)}" y="2" '
            f'fill="#f6edd5" stroke="{INK}" stroke-width="1.5"/>',
            label,
        ))
    if state.objectives:
        items.append((
            f'<circle cx="{_f(sw / 2)}" cy="{_f(sh / 2)}" r="{_f(sh / 2)}" fill="none" '
            f'stroke="{UNHELD}" stroke-width="1.3" stroke-dasharray="3 2"/>',
            "Objective",
        ))
    for kind, words in POINT_KINDS.items():
        if kind in point_kinds:
            items.append((_point_mark(kind, sw / 2, sh / 2, sh * 0.9, NEUTRAL_COLOUR),
                          f"{words} (its side's colour; ringed in the holder's)"))
    items.append((
        f'<line x1="0" y1="{_f(sh / 2)}" x2="{_f(sw - 5)}" y2="{_f(sh / 2)}" stroke="{INK}" '
        f'stroke-width="1.2" stroke-dasharray="4 2"/><path d="M{_f(sw)},{_f(sh / 2)} '
        f'l-6,-3.5 v7 Z" fill="{INK}"/>',
        "Movement",
    ))
    present = {f.kind for f in table.features}
    own_kinds = sorted(present - set(_DRAW_ORDER))  # a rule set's own kinds, drawn plainly
    for kind in (*_DRAW_ORDER, *own_kinds):
        if kind not in present:
            continue
        own_style = (*_OWN_KIND_STYLE[:2], kind.replace("_", " ").capitalize())
        fill, stroke, label = TERRAIN_STYLE.get(kind, own_style)
        if kind in (TerrainKind.RIVER, TerrainKind.ROAD, TerrainKind.HEDGE):
            dash = ' stroke-dasharray="3 2"' if kind is TerrainKind.HEDGE else ""
            swatch = (
                f'<line x1="0" y1="{_f(sh / 2)}" x2="{_f(sw)}" y2="{_f(sh / 2)}" stroke="{fill}" '
                f'stroke-width="{_f(sh * 0.55)}"{dash}/>'
            )
        else:
            overlays: dict[str, str] = {
                TerrainKind.WOODS: f"url(#{pid}-woods)",
                TerrainKind.FIELD: f"url(#{pid}-field)",
                TerrainKind.MARSH: f"url(#{pid}-marsh)",
                TerrainKind.BROKEN: f"url(#{pid}-broken)",
            }
            overlay = overlays.get(kind)
            swatch = (
                f'<rect width="{_f(sw)}" height="{_f(sh)}" fill="{fill}" stroke="{stroke}" '
                'stroke-width="0.8"/>'
            )
            if overlay:
                swatch += f'<rect width="{_f(sw)}" height="{_f(sh)}" fill="{overlay}"/>'
            if kind is TerrainKind.TOWN:
                swatch += (
                    '<rect x="3" y="3" width="6" height="4" fill="#7d6650"/>'
                    '<rect x="12" y="5" width="6" height="4" fill="#7d6650"/>'
                )
        items.append((swatch, label))
        if kind is TerrainKind.FIELD and any(f.hedged for f in table.features if f.kind is kind):
            items.append((
                f'<rect width="{_f(sw)}" height="{_f(sh)}" fill="{fill}" '
                f'stroke="{TERRAIN_STYLE[TerrainKind.HEDGE][0]}" stroke-width="2.5" '
                'stroke-dasharray="2 2.5"/>',
                "Hedged field",
            ))

    size = max(9.0, font_px)
    char_w = size * 0.52
    x0 = canvas.margin
    max_x = canvas.width - canvas.margin
    x, row = x0, 0
    row_h = max(sh, size) + 8
    top = canvas.table_height - canvas.margin * 0.1
    placed: list[str] = []
    for swatch, label in items:
        w = sw + 6 + len(label) * char_w + 16
        if x + w > max_x and x > x0:
            x, row = x0, row + 1
        y = top + row * row_h
        placed.append(
            f'<g transform="translate({_f(x)},{_f(y)})">{swatch}'
            f'<text x="{_f(sw + 6)}" y="{_f(sh / 2 + size * 0.35)}">{escape(label)}</text></g>'
        )
        x += w
    height = (row + 1) * row_h + 6
    return (
        f'<g class="legend" font-size="{_f(size)}" fill="{INK}">' + "".join(placed) + "</g>",
        height,
    )
