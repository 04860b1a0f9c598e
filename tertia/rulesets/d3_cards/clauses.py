"""Names of the clauses of "D3 ECW Wargaming Rules" (the earlier version) that rejections
and docs cite, by the page's own section headings."""

from tertia.rulesets.d3.clauses import ClauseBook

PREFIX = "D3 (earlier)"

UNITS = f"{PREFIX}: Units"
SEQUENCE = f"{PREFIX}: Sequence of Play"
ACTIVATION = f"{PREFIX}: Sequence of Play, activation"
MOVEMENT = f"{PREFIX}: Movement"
STRAIGHT = f"{PREFIX}: Movement, straight lines"
PIVOT = f"{PREFIX}: Movement, pivoting"
CHARGE = f"{PREFIX}: Movement, charges"
CHARGE_TURN = f"{PREFIX}: Movement, charges (turning)"
CHARGE_LIMIT = f"{PREFIX}: Movement, charges (one attacker)"
INTERPENETRATION = f"{PREFIX}: Interpenetration"
WOODS = f"{PREFIX}: Terrain Effects, woods"
TOWNS = f"{PREFIX}: Terrain Effects, towns"
MARSH = f"{PREFIX}: Terrain Effects, marsh and lakes"
RIVERS = f"{PREFIX}: Terrain Effects, rivers"
ARTILLERY_MOVE = f"{PREFIX}: Movement, artillery"
MUSKETRY = f"{PREFIX}: Musketry"
MUSKETRY_PROCEDURE = f"{PREFIX}: Musketry 1 (field of fire, line of sight)"
MUSKETRY_RANGE = f"{PREFIX}: Musketry 2 (range)"
MUSKETRY_HITS = f"{PREFIX}: Musketry 3 (hits)"
AMMUNITION = f"{PREFIX}: Musketry, ammunition shortage"
ARTILLERY = f"{PREFIX}: Artillery"
ARTILLERY_RANGE = f"{PREFIX}: Artillery 2 (range)"
MELEE = f"{PREFIX}: Melee"
FLANKS = f"{PREFIX}: Melee 3 (flank and rear attacks)"
ELIMINATED = f"{PREFIX}: Melee, artillery and commanders engaged"
WITHDRAW = f"{PREFIX}: Melee, withdrawing"
IMPETUOUS = f"{PREFIX}: Melee, impetuous Horse"
ROUTING = f"{PREFIX}: Routing"
COMMANDERS = f"{PREFIX}: Commanders"
RALLY = f"{PREFIX}: Commanders, rallying"
WEATHER = f"{PREFIX}: Weather"

BOOK = ClauseBook(
    sequence=SEQUENCE, activation=ACTIVATION, move_allowance=MOVEMENT, pivot=PIVOT,
    straight_line=STRAIGHT, interpenetration=INTERPENETRATION, charge=CHARGE,
    charge_turn=CHARGE_TURN, charge_limit=CHARGE_LIMIT, woods=WOODS, towns=TOWNS, marsh=MARSH,
    rivers=RIVERS, artillery=ARTILLERY_MOVE, shooting=MUSKETRY, shooting_procedure=MUSKETRY_PROCEDURE,
    shooting_range=MUSKETRY_RANGE, ammunition=AMMUNITION, melee=MELEE, withdraw=WITHDRAW,
    routing=ROUTING, commander=COMMANDERS, weather=WEATHER,
)
