"""CLI tests run ``python -m threeup_tui`` in a subprocess.

The record builders live with the rules tests (tests/rules/dealing.py,
samples.py); make them importable here too.
"""

from __future__ import annotations

import sys
from pathlib import Path

_RULES = str(Path(__file__).resolve().parent.parent / "rules")
if _RULES not in sys.path:
    sys.path.insert(0, _RULES)
