"""Write an SVG screenshot of every screen: ``python -m threeup_tui.app.screenshots``.

The pictures come from the app's own export (``App.export_screenshot``) of
the fixed scenes in :mod:`.scenes`, so running this twice writes the same
files.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
from pathlib import Path

from .scenes import Scene, scenes

SIZES = ((80, 24), (120, 40))


async def shoot(scene: Scene, size: tuple[int, int]) -> str:
    app = scene.app()
    # In an empty directory: the game-over box offers the first record name
    # no file has where the app runs, and the pictures must not depend on that.
    with tempfile.TemporaryDirectory() as empty, contextlib.chdir(empty):
        async with app.run_test(size=size) as pilot:
            await scene.drive(pilot)
            return app.export_screenshot(title=f"threeup: {scene.name}")


async def shoot_all(out: Path, only: list[str] | None = None) -> list[Path]:
    out = out.resolve()  # each picture is taken in another directory
    out.mkdir(parents=True, exist_ok=True)
    written = []
    # The real rules page (docs/rules.md) for the pictures.
    for scene in scenes(rules_text=None):
        if only and scene.name not in only:
            continue
        for width, height in SIZES:
            path = out / f"{scene.name}-{width}x{height}.svg"
            path.write_text(await shoot(scene, (width, height)), encoding="utf-8")
            written.append(path)
            print(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("scenes", nargs="*", help="only these scenes (default: all)")
    args = parser.parse_args(argv)
    asyncio.run(shoot_all(args.out, args.scenes or None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
