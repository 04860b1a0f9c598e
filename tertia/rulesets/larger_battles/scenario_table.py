"""larger-battles' own table in a scenario file, ``[extensions."larger-battles"]``: each
army's supply bases (Supplies).

Older files write the supply bases at the top level, ``[[supplies]]``; the file reader
takes them as this table's (``RuleSet.SCENARIO_TOP_LEVEL``).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tertia.core.scenario import MAX_PIECES, Finite, Ident, Strict, Text


class SupplySpec(Strict):
    """A supply base: whose, where (its centre), an id (one is made if none is given) and
    the name players call it by ("the baggage at Kineton"), which refusals and the log
    use; without one they call it by its side and place ("Parliament's central supply
    base")."""

    side: Text
    x: Finite
    y: Finite
    id: Ident | None = None
    name: Text = ""


class LargerBattlesTable(Strict):
    """``[extensions."larger-battles"]``: ``[[extensions."larger-battles".supplies]]``."""

    supplies: Annotated[tuple[SupplySpec, ...], Field(max_length=MAX_PIECES)] = ()
