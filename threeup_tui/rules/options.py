"""Rule options of rules.md: ``first``, ``voluntary_pickup`` and ``finish``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..textclean import shown_value

FIRST_OUT: Final = "first_out"
PLACES: Final = "places"
Finish = Literal["first_out", "places"]
KNOWN_OPTIONS: Final = frozenset({"first", "voluntary_pickup", "finish"})


class OptionError(ValueError):
    """An option that is unknown or has a value the rules do not define."""


@dataclass(frozen=True, slots=True)
class Options:
    first: int | None = None  # None: a seat chosen at random (D3)
    voluntary_pickup: bool = False  # D12
    finish: Finish = "first_out"  # D15

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise OptionError("options must be an object")
        unknown = set(data) - KNOWN_OPTIONS
        if unknown:
            raise OptionError(f"unknown option {shown_value(sorted(unknown)[0])}")
        first = data.get("first", "random")
        if first == "random":
            first_seat: int | None = None
        elif isinstance(first, int) and not isinstance(first, bool):
            first_seat = first
        else:
            raise OptionError("option 'first' must be \"random\" or a seat number")
        voluntary = data.get("voluntary_pickup", False)
        if not isinstance(voluntary, bool):
            raise OptionError("option 'voluntary_pickup' must be true or false")
        finish = data.get("finish", FIRST_OUT)
        if finish == FIRST_OUT:
            return cls(first_seat, voluntary, "first_out")
        if finish == PLACES:
            return cls(first_seat, voluntary, "places")
        raise OptionError('option \'finish\' must be "first_out" or "places"')

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from their defaults."""
        out: dict[str, Any] = {}
        if self.first is not None:
            out["first"] = self.first
        if self.voluntary_pickup:
            out["voluntary_pickup"] = True
        if self.finish != FIRST_OUT:
            out["finish"] = self.finish
        return out
