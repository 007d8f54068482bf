"""Let go of the lines Textual drew for widgets that are gone.

Textual (8.x; textual#6665, open) caches ``StylesCache.get_inner_outer``
with ``functools.lru_cache`` on the method itself, so every key holds a
widget's ``StylesCache`` (every line drawn for that widget) for the last
1024 calls' widgets, long after the widget is removed.  A game makes about
a hundred widgets (the set-up, the table, the result box), so over an
evening the app kept some 1000 dead widgets' lines: 20 to 26 MiB more,
and 170,000 more objects for every full collection to walk
(benchmarks/app_evening.py).  The cache only saves building two small
styles: emptied at each new game, it holds that game's.
"""

from __future__ import annotations

import importlib


def forget_dead_widgets_lines() -> None:
    # A private module and method: a later Textual may move the one or stop
    # caching the other, and then there is nothing to empty.
    try:
        styles_cache = importlib.import_module("textual._styles_cache")
    except ImportError:
        return
    method = getattr(getattr(styles_cache, "StylesCache", None), "get_inner_outer", None)
    cache_clear = getattr(method, "cache_clear", None)
    if cache_clear is not None:
        cache_clear()


__all__ = ["forget_dead_widgets_lines"]
