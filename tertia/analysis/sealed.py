"""What a step settled apart returns for the record only, sealed while the walk goes on.

A step's result may keep, beside what the rules go on to read, values for the record (a
morale check's dice and the chart's word for them): its class declares them in
``RECORD``. Exact odds (:mod:`tertia.analysis.apart`) merge the step's branches without
them, so the result of one branch stands for all merged into it; its record text is then
sealed (:class:`SealedText`): read by the rules while the walk goes on, it breaks the seal
(:class:`~tertia.analysis.enumerate.SealBroken`) and the walk is begun again with the step
walked as it runs. Dice kept for the record are sealed by the walk that rolled them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol

from tertia.analysis.enumerate import Probe, SealBroken, Total


class Seal(Protocol):
    """Whether values sealed for a step may not be read now."""

    sealing: bool


class SealedText(str):
    """Text kept for the record by a step settled apart (``label``): any use of it while
    ``seal`` is sealing breaks the seal; once the walk is over it is the text it holds."""

    _seal: Seal
    _label: str

    def __new__(cls, text: str, seal: Seal, label: str) -> SealedText:
        sealed = super().__new__(cls, text)
        sealed._seal = seal
        sealed._label = label
        return sealed


def _guarded(name: str) -> Callable[..., Any]:
    base = getattr(str, name)

    def use(self: SealedText, *args: Any, **kwargs: Any) -> Any:
        if self._seal.sealing:
            raise SealBroken(self._label)
        return base(str.__str__(self), *args, **kwargs)

    return use


_UNGUARDED = {"__new__", "__init__", "__getattribute__", "__setattr__", "__delattr__", "__class__",
              "__init_subclass__", "__subclasshook__", "__reduce__", "__reduce_ex__", "__getnewargs__",
              "__sizeof__", "__dir__", "__doc__"}
for _name in dir(str):
    if _name not in _UNGUARDED and callable(getattr(str, _name)):
        setattr(SealedText, _name, _guarded(_name))


def _record_field(value: Any) -> bool:
    """A record field that can be left out of a step's key: a die, dice, or text."""
    if isinstance(value, (Probe, Total, str)):
        return True
    return isinstance(value, tuple) and all(isinstance(v, (Probe, Total)) for v in value)


def record_fields(value: Any) -> tuple[str, ...]:
    """The fields of ``value`` its class keeps for the record (``RECORD``) that the key of
    a step's outcome may leave out."""
    names: tuple[str, ...] = getattr(type(value), "RECORD", ())
    if not names or not dataclasses.is_dataclass(value) or isinstance(value, type):
        return ()
    return tuple(name for name in names if _record_field(getattr(value, name)))


def sealed(value: Any, seal: Seal, label: str) -> Any:
    """``value`` with its record text sealed (:class:`SealedText`)."""
    texts = {name: SealedText(getattr(value, name), seal, label) for name in record_fields(value)
             if isinstance(getattr(value, name), str)}
    return dataclasses.replace(value, **texts) if texts else value
