"""Suite-wide safety: nothing a test starts may announce on a real network.

Hosts started without an explicit announce address read THREEUP_ANNOUNCE;
tests that exercise discovery pass 127.255.255.255 explicitly.
"""

from __future__ import annotations

import os

os.environ["THREEUP_ANNOUNCE"] = "off"
