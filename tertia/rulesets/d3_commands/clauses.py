"""Names of the clauses of "D3 English Civil War Rules" (18 September 2022) that
rejections and docs cite. The scraped page lost most headings; the sections are named
as the original page orders them."""

from tertia.rulesets.d3.clauses import ClauseBook

PREFIX = "D3 (2022)"

UNITS = f"{PREFIX}: Units"
COMMANDS = f"{PREFIX}: Commands"
COHESION = f"{PREFIX}: Commands, 6\" rule"
DEPLOYMENT = f"{PREFIX}: Deployment"
SEQUENCE = f"{PREFIX}: Sequence of Play"
CARDS = f"{PREFIX}: Sequence of Play, command cards"
INITIATIVE = f"{PREFIX}: Sequence of Play, initiative"
SOLO = f"{PREFIX}: Sequence of Play, solo games"
ACTIVATION = f"{PREFIX}: Sequence of Play, activation"
MOVEMENT = f"{PREFIX}: Movement"
PIVOT = f"{PREFIX}: Movement, pivoting"
INTERPENETRATION = f"{PREFIX}: Movement, interpenetration"
NEAR_ENEMY = f"{PREFIX}: Movement, 12\" rule"
CHARGE = f"{PREFIX}: Movement, charges"
CHARGE_TURN = f"{PREFIX}: Movement, charges 1 (turning)"
CHARGE_LIMIT = f"{PREFIX}: Movement, charges 2 (limited engagement)"
WOODS = f"{PREFIX}: Terrain Effects, woods"
TOWNS = f"{PREFIX}: Terrain Effects, towns"
MARSH = f"{PREFIX}: Terrain Effects, marsh and lakes"
RIVERS = f"{PREFIX}: Terrain Effects, rivers"
ARTILLERY = f"{PREFIX}: Movement, artillery"
SHOOTING = f"{PREFIX}: Shooting"
SHOOTING_PROCEDURE = f"{PREFIX}: Shooting 1 (field of fire, line of sight)"
SHOOTING_RANGE = f"{PREFIX}: Shooting 2 (range)"
SHOOTING_HITS = f"{PREFIX}: Shooting 3 (hits)"
AMMUNITION = f"{PREFIX}: Shooting, ammunition shortage"
MELEE = f"{PREFIX}: Melee"
WITHDRAW = f"{PREFIX}: Melee, withdrawing"
IMPETUOUS = f"{PREFIX}: Melee, impetuous Horse"
DRAGOONS_IN_MELEE = f"{PREFIX}: comments, the author on dragoons in melee"
CLUBMEN = f"{PREFIX}: comments, the author on Clubmen"
ROUTING = f"{PREFIX}: Routing"
COMMANDER = f"{PREFIX}: Commanders"
WEATHER = f"{PREFIX}: Weather"

BOOK = ClauseBook(
    sequence=SEQUENCE, activation=ACTIVATION, move_allowance=MOVEMENT, pivot=PIVOT,
    straight_line=MOVEMENT, interpenetration=INTERPENETRATION, charge=CHARGE,
    charge_turn=CHARGE_TURN, charge_limit=CHARGE_LIMIT, woods=WOODS, towns=TOWNS, marsh=MARSH,
    rivers=RIVERS, artillery=ARTILLERY, shooting=SHOOTING, shooting_procedure=SHOOTING_PROCEDURE,
    shooting_range=SHOOTING_RANGE, ammunition=AMMUNITION, melee=MELEE, withdraw=WITHDRAW,
    routing=ROUTING, commander=COMMANDER, weather=WEATHER,
)
