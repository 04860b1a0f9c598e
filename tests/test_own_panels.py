"""A rule set's own panel: declared under a name no front end knows, filled by its
presentation from generic sections, served with every view from the viewer's own
observation (the example slice's muster: each side's free-move unit, the enemy's face
down, and the cards left to draw)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.core.presentation import PanelItem, PanelSection
from tertia.core.vocabulary import PANEL_NAMES, PanelKind
from tertia.web.app import create_app
from tests.example_rules.data import RULES_ID, AssignFreeMove
from tests.example_rules.vocabulary import MUSTER
from tests.plugin_rules import with_plugins
from tests.web_support import bearer, create, service


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with with_plugins(), TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def muster(client: TestClient, gid: str, token: dict[str, str]) -> dict[str, Any]:
    answer = client.get(f"/api/games/{gid}/view", headers=token)
    assert answer.status_code == 200, answer.text
    [panel] = [p for p in answer.json()["panels"] if p["name"] == MUSTER]
    return dict(panel)


def test_a_panel_of_its_own_is_filled_by_the_rule_set(client: TestClient) -> None:
    assert MUSTER not in PANEL_NAMES
    created = create(client, scenario="declare", rules=RULES_ID, mode="link")
    gid, tokens = created["id"], {s: bearer(t) for s, t in created["tokens"].items()}
    live = service(client).live(gid)
    side = live.state.to_act
    other = next(s for s in live.sides if s != side)
    assert live.state.pending is not None and live.state.pending["kind"] == "assign_free_move"
    panel = muster(client, gid, tokens[side])
    assert panel["label"] == "Muster" and [s["key"] for s in panel["sections"]] == ["ex-free-move",
                                                                                   "ex-cards-left"]
    assert panel["sections"][0]["items"] == [] and panel["sections"][0]["note"] == "Not yet given this turn."
    mine = next(u for u in live.state.iter_troops(side))
    answer = client.post(f"/api/games/{gid}/actions", json=AssignFreeMove(unit=mine.id).to_dict(),
                         headers=tokens[side])
    assert answer.status_code == 200, answer.text
    seen_by_me = muster(client, gid, tokens[side])["sections"][0]["items"]
    assert {"text": mine.label, "side": side, "state": "active", "unit": mine.id} in seen_by_me
    # The enemy's view of the same panel: that a unit was chosen, never which.
    seen_by_them = muster(client, gid, tokens[other])
    items = seen_by_them["sections"][0]["items"]
    assert {"text": "a unit chosen in secret", "side": side, "state": "back"} in items
    assert mine.id not in str(seen_by_them) and mine.label not in str(seen_by_them)


def test_panel_parts_refuse_what_the_page_cannot_draw() -> None:
    with pytest.raises(ValueError, match="style"):
        PanelSection("x", (), "table")
    with pytest.raises(ValueError, match="state"):
        PanelItem("x", state="glowing")
    with pytest.raises(ValueError, match="panel name"):
        PanelKind("Muster Roll", "Muster", "")
    assert PanelSection("k", (PanelItem("a", state="back"),), "cards", open=False).to_dict() == {
        "key": "k", "style": "cards", "items": [{"text": "a", "state": "back"}], "open": False}
