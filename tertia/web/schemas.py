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
    options: dict[str, bool | int | float | str] = Field(
        default_factory=dict, description="rule-set options (see GET /api/catalogue)")
    seed: int | None = Field(None, ge=0, lt=2**63, description=(
        "the dice seed, for hotseat, AI and watch games; left out, the server draws a secret "
        "128-bit seed (always so in link mode), shown when the game is over"))
    mode: Mode = Field("hotseat", description=(
        "hotseat: both sides on one screen; ai: against the AI (give `side`); link: two players, "
        "each with a secret link; watch: the AI plays both sides"))
    side: str | None = Field(None, max_length=64, description="your side when playing the AI")


class CreatedGame(BaseModel):
    """A created game: its id, and one secret token per human side (``spectator`` when
    the AI plays both). Each token is shown only now; the server keeps only its hash."""

    id: str
    mode: Mode
    tokens: dict[str, str]
    links: dict[str, str] = Field(description="page addresses that carry each token in the fragment")


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
