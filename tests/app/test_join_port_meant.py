"""`threeup join fd00::2:5000` reads an IPv6 address at the default port;
the command line says what it may mean ([fd00::2]:5000), but to stderr
before the app opens, where it showed only once the app had gone.  The
join form says it while it waits and when the join fails."""

from __future__ import annotations

import asyncio

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.launcher import JoinSettings

HINT = "For port 5000 write [fd00::2]:5000"


class NoAnswer(ScriptedLauncher):
    """A table that never answers (until told to fail)."""

    def __init__(self) -> None:
        super().__init__(ScriptedClient())
        self.fail = asyncio.Event()

    async def join(self, settings: JoinSettings):  # type: ignore[no-untyped-def,override]
        await self.fail.wait()
        raise ConnectionError("nothing listens at [fd00::2:5000]:47823")


@pytest.mark.parametrize(
    ("address", "joining", "said"),
    [
        ("fd00::2:5000", "Joining [fd00::2:5000]:47823", True),
        ("[fd00::2]:5000", "Joining [fd00::2]:5000", False),  # brackets: meant as typed
    ],
)
async def test_the_join_form_says_which_port_a_bare_ipv6_address_may_mean(
    address: str, joining: str, said: bool
) -> None:
    launcher = NoAnswer()
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings(address, "Bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: joining in screen_text(app))
        assert (HINT in screen_text(app)) is said  # while it waits
        launcher.fail.set()
        await wait_for(pilot, lambda: "Could not join: nothing listens" in screen_text(app))
        assert (HINT in screen_text(app)) is said  # and where it failed
        assert said or "write [" not in screen_text(app)
