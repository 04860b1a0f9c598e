"""Game rows to and from Parquet: one row per game, columns as in ``docs/simulation.md``,
and the study's description (scenario, rule set, sides, troops fielded, master seed) in the
file's metadata under ``tertia``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tertia.analysis.sim.games import Row
from tertia.io.files import replacing

METADATA_KEY = b"tertia"
TEXT_COLUMNS = frozenset(
    {"scenario", "ruleset", "ruleset_version", "options", "vary", "winner", "reason", "ending", "first_side",
     "error"}
)
"""Every other column is a 64-bit integer (empty where a game failed), but each side's
player (``player_<side>``)."""


def is_text(column: str) -> bool:
    return column in TEXT_COLUMNS or column.startswith("player_")


def write_rows(path: Path, rows: Sequence[Row], columns: Sequence[str], metadata: Mapping[str, Any]) -> None:
    """Write ``rows`` with exactly ``columns``, in order; raises ``OSError`` when the file
    cannot be written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    fields = [pa.field(c, pa.string() if is_text(c) else pa.int64()) for c in columns]
    schema = pa.schema(fields, metadata={METADATA_KEY: json.dumps(dict(metadata), sort_keys=True)})
    table = pa.Table.from_pydict({c: [r.get(c) for r in rows] for c in columns}, schema=schema)
    try:
        with replacing(path) as tmp:
            pq.write_table(table, tmp)
    except pa.ArrowException as exc:  # pyarrow wraps some file errors in its own types
        raise OSError(str(exc)) from exc


def read_rows(path: Path) -> tuple[list[Row], dict[str, Any]]:
    """The rows of a file written by :func:`write_rows`, and its metadata."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    metadata: dict[str, Any] = json.loads(raw) if raw else {}
    return table.to_pylist(), metadata
