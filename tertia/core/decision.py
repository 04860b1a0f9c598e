"""A decision the rules await from one side before play goes on: a defender's answer to
an attack, a secret order of cards, where to deploy, whether to fire or countercharge.

Several may wait at once (:attr:`GameState.decisions <tertia.core.state.GameState.decisions>`
keeps them in the order they arose); the first is the one to answer now, and its side is
the side to act. A decision reads like the JSON object front ends receive: its ``side``,
its ``kind`` and its context (the attack it answers, the commanders eligible ...).

>>> d = Decision("royalist", "encourage", {"attacker": "a", "eligible": ("c1",)})
>>> d["side"], d["kind"], d["eligible"], d.get("missing")
('royalist', 'encourage', ('c1',), None)
>>> dict(d) == {"side": "royalist", "kind": "encourage", "attacker": "a", "eligible": ("c1",)}
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final


class Decision(Mapping[str, Any]):
    """One awaited decision: ``side`` decides, ``kind`` names what, ``context`` says about
    what. A value: equal decisions have equal fields, and none ever changes."""

    __slots__ = ("context", "kind", "side")

    def __init__(self, side: str, kind: str, context: Mapping[str, Any] | None = None) -> None:
        if context and ("side" in context or "kind" in context):
            raise ValueError("a decision's context cannot name its side or kind")
        self.side: Final = side
        self.kind: Final = kind
        self.context: Final[Mapping[str, Any]] = {} if context is None else dict(context)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decision:
        """From the JSON object :meth:`to_dict` gives."""
        rest = {k: v for k, v in d.items() if k not in ("side", "kind")}
        return cls(str(d["side"]), str(d["kind"]), rest)

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "kind": self.kind, **self.context}

    def __getitem__(self, key: str) -> Any:
        if key == "side":
            return self.side
        if key == "kind":
            return self.kind
        return self.context[key]

    def __iter__(self) -> Iterator[str]:
        yield "side"
        yield "kind"
        yield from self.context

    def __len__(self) -> int:
        return 2 + len(self.context)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Decision):
            return (self.side, self.kind, self.context) == (other.side, other.kind, other.context)
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal by value, and holds a dict

    def __repr__(self) -> str:
        return f"Decision({self.side!r}, {self.kind!r}, {dict(self.context)!r})"
