"""Charge yr Pikes!' troop types: how each is organised (Unit Organizations), how it moves
(the movement table, section 5), which class its morale is rolled on (section 11 A) and
how it fights (section 12 D).

>>> FOOT.stands, FOOT.figures_per_stand, FOOT.pike_stands
(8, 4, 4)
>>> TROOPS["horse"].arm, TROOPS["dragoons"].stands
('horse', 6)
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.state import UnitKind


@dataclass(frozen=True, slots=True)
class Troop:
    """A troop type: its table line (``move``, a key of the movement table), the engine's
    unit kind, its arm (for terrain costs), its usual stands and figures a stand, how many
    of them carry pikes, and its default morale class."""

    name: str
    kind: UnitKind
    move: str
    arm: str
    stands: int
    figures_per_stand: int
    pike_stands: int = 0
    morale_class: str = "foot"

    @property
    def figures(self) -> int:
        return self.stands * self.figures_per_stand

    @property
    def mounted(self) -> bool:
        return self.arm == "horse"


FOOT = Troop("foot", UnitKind.FOOT, "foot", "foot", 8, 4, pike_stands=4)
"""Unit Organizations B: "32 figures strong, in eight 4-man companies, 4 of shot, and 4 of
pike"."""

TROOPS: dict[str, Troop] = {t.name: t for t in (
    FOOT,
    Troop("musketeers", UnitKind.COMMANDED_SHOT, "musketeers", "foot", 4, 4),
    Troop("highlanders", UnitKind.FOOT, "highlanders", "foot", 6, 4, pike_stands=0),
    Troop("horse", UnitKind.HORSE, "horse", "horse", 5, 3, morale_class="horse"),
    Troop("lobsters", UnitKind.HORSE, "lobsters", "horse", 5, 3, morale_class="horse"),
    Troop("scots_horse", UnitKind.HORSE, "scots_horse", "horse", 5, 3, morale_class="second_rate_horse"),
    Troop("dragoons", UnitKind.DRAGOONS, "dragoons", "horse", 6, 3, morale_class="second_rate_horse"),
    Troop("artillery", UnitKind.ARTILLERY, "artillery", "artillery", 1, 3, morale_class="clubmen"),
    Troop("wagons", UnitKind.ARTILLERY, "wagons", "artillery", 1, 1, morale_class="clubmen"),
    Troop("officer", UnitKind.COMMANDER, "officer", "horse", 1, 1, morale_class="horse"),
)}
"""Unit Organizations A to C and the movement table's lines. Dragoons are listed mounted,
"six 3-man stands"; dismounted "four 4-man stands plus two stands of horse holders". A
battery is one gun and its gunners (crew sizes by gun are in the tables: canister rolls
"a D6 for each gunner"). Highlanders fight "1 D6 for each ... highlanders stand" as pikes
do, without pikes. Officers' coaches and wagons move on their own lines."""

DISMOUNTED_DRAGOON_STANDS = 4
"""Dragoons on foot: "four 4-man stands plus two stands of horse holders"."""
HORSE_HOLDERS = 2
"""Men of a regiment of dragoons (eighteen mounted) who hold the horses while the other
sixteen fight on foot: "four 4-man stands plus two stands of horse holders" read as two
stands of one man each, so that the regiment's figures stay eighteen."""
