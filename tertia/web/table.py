"""The table as the page draws it: size, terrain and the colours of the printed map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.game import Game
from tertia.io.svg import INK, PAPER, SIDE_COLOURS, TABLE_COLOUR, TERRAIN_STYLE


def table_data(game: Game, side_names: Mapping[str, str]) -> dict[str, Any]:
    """Everything fixed for a battle that the page needs to draw the table (the same for
    both sides: no piece is listed here)."""
    table = game.table
    sides = game.scenario.side_ids
    return {
        "title": game.scenario.name,
        "description": game.scenario.description,
        "notes": game.scenario.notes,
        "width": table.width,
        "depth": table.depth,
        "sides": [
            {"id": s.id, "name": side_names.get(s.id, s.id), "edge": s.edge,
             "colour": SIDE_COLOURS[i % len(SIDE_COLOURS)]}
            for i, s in enumerate(game.scenario.sides)
        ],
        "side_order": list(sides),
        "terrain": [
            {"kind": str(f.kind), "name": f.name, "outline": [list(p) for p in f.outline],
             "line": [list(p) for p in f.line], "width": f.width, "hedged": f.hedged,
             "height": f.height}
            for f in table.features
        ],
        "styles": {
            str(kind): {"fill": fill, "stroke": stroke, "label": label}
            for kind, (fill, stroke, label) in TERRAIN_STYLE.items()
        },
        "palette": {"ink": INK, "paper": PAPER, "table": TABLE_COLOUR},
        "turns": game.scenario.turns,
    }
