"""Request and response bodies of the HTTP API, as pydantic models (they document the
OpenAPI page; the game data inside views is the engine's own JSON)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["hotseat", "ai", "link", "watch"]


class NewGame(BaseModel):
    """A new game: a built-in scenario, a rule set with options, a seed, and who plays."""

    # Strict: a string or a float where an integer belongs is refused, never converted.
    model_config = ConfigDict(extra="forbid", strict=True)

    scenario: str = Field("skirmish", max_length=64, description="a built-in scenario's name")
    rules: str = Field("larger-battles", max_length=64, description="a rule set id")
    # Any JSON value: each is read by its option's own declaration (tertia.web.options),
    # which refuses it naming what that option takes.
    options: dict[str, Any] = Field(
        default_factory=dict, description=(
            "rule-set options (see GET /api/catalogue), each true or false, a number or text as "
            "its option takes"))
    seed: int | None = Field(None, ge=0, lt=2**63, description=(
        "the dice seed, for hotseat, AI and watch games; left out, the server draws a secret "
        "128-bit seed (always so in link mode), shown when the game is over"))
    mode: Mode = Field("hotseat", description=(
        "hotseat: both sides on one screen; ai: against the AI (give `side`); link: two players, "
        "each with a secret link; watch: the AI plays both sides"))
    side: str | None = Field(None, max_length=64, description="your side when playing the AI")
    opponent: str | None = Field(None, max_length=64, description=(
        "the player of every side the server plays (GET /api/catalogue `players`); left out, "
        "the doctrine"))


class CreatedGame(BaseModel):
    """A created game: its id, and one secret token per human side (``spectator`` when
    the AI plays both). Each token is shown only now; the server keeps only its hash."""

    id: str
    mode: Mode
    tokens: dict[str, str]
    links: dict[str, str] = Field(description="page addresses that carry each token in the fragment")


class OddsQuestion(BaseModel):
    """A question of odds about the position as the asking side sees it: the rule set's
    ``question`` word asked of one of the side's own units at a unit it can see."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question: str | None = Field(None, max_length=32, description=(
        "the rule set's word (`questions.words` in GET /api/rules/{id}: fire, ball, canister, "
        "charge or morale under charge-yr-pikes); left out, the rule set's own choice"))
    attacker: str = Field(max_length=64, description="your unit that acts (or takes the morale test)")
    target: str | None = Field(None, max_length=64, description=(
        "the unit it acts on; left out for a question about the unit alone (a morale test with "
        "no enemy causing it)"))
    details: dict[str, str | list[str] | None] = Field(default_factory=dict, max_length=8, description=(
        "the rule set's particulars, each naming units (`questions.details`: larger-battles' "
        "supports, commander, defender_commander); most take none"))


class Refusal(BaseModel):
    """Every refusal: a stable code, a message with the numbers, and the rule (for
    actions the rules forbid)."""

    code: str
    message: str
    rule: str | None = None
    violations: list[dict[str, str]] | None = None


REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": Refusal, "description": "no token"},
    403: {"model": Refusal, "description": "a token of another game, or not your side or turn"},
    404: {"model": Refusal, "description": "no such game or unit"},
    409: {"model": Refusal, "description": "the rules forbid it now"},
    413: {"model": Refusal, "description": "the body is too large"},
    422: {"model": Refusal, "description": "malformed request"},
}
