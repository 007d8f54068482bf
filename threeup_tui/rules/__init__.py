"""The rules engine: pure, deterministic, no UI, no network, no I/O."""

from .actions import DRAW, FLIP, PICKUP, Move, describe_action, play_action
from .errors import IllegalMove, RulesError, SetupError
from .options import Options
from .record import MalformedRecord, Record, Verdict, parse_record, record_of, replay, verify
from .state import GameState, Phase
from .views import (
    LogEntry,
    SeatInfo,
    View,
    concrete_move,
    seat_view,
    view_from_json,
    view_to_json,
)

__all__ = [
    "DRAW",
    "FLIP",
    "PICKUP",
    "GameState",
    "IllegalMove",
    "LogEntry",
    "MalformedRecord",
    "Move",
    "Options",
    "Phase",
    "Record",
    "RulesError",
    "SeatInfo",
    "SetupError",
    "Verdict",
    "View",
    "concrete_move",
    "describe_action",
    "parse_record",
    "play_action",
    "record_of",
    "replay",
    "seat_view",
    "verify",
    "view_from_json",
    "view_to_json",
]
