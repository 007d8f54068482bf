"""How many examples a property test runs: CI's sample, or a soak's hunt.

CI runs each property on a derandomized sample sized to find, in a few
seconds, the faults the test has caught; ``THREEUP_HYPOTHESIS=soak`` runs
the numbers the tests ran before (or more), on random seeds, to hunt:

    THREEUP_HYPOTHESIS=soak python -m pytest tests/rules tests/netplay/test_wire_views.py \
        tests/seats/test_table_stateful.py
"""

from __future__ import annotations

import os

PROFILE_VARIABLE = "THREEUP_HYPOTHESIS"
PROFILES = ("ci", "soak")
PROFILE = os.environ.get(PROFILE_VARIABLE, "").strip().lower() or "ci"
SOAK = PROFILE == "soak"


def profile_problem() -> str | None:
    """What is wrong with THREEUP_HYPOTHESIS, or None."""
    if PROFILE in PROFILES:
        return None
    return f"{PROFILE_VARIABLE}={PROFILE!r}: expected one of {', '.join(PROFILES)}"


def examples(ci: int, soak: int) -> int:
    """``ci`` examples in CI, ``soak`` in a soak."""
    return soak if SOAK else ci
