"""``talespin serve`` whose every run repeats exactly: fixed seeds, ids, tokens, times and server nonces.

Run as ``python fixed_serve.py serve --db … --port …`` (the arguments of ``talespin serve``). It sets the
defaults of :func:`talespin.web.create_app` where the table draws its seeds and reads its clock, ids, tokens
and nonces (the ``seeds`` and ``sources`` a test may pass it in process), then runs the real command line:
the same ``serve``, uvicorn, middleware, rate limits, store and WebSocket as any server. Two such servers
played the same way give the same bytes wherever nothing secret differs, which is what the
non-interference tests compare. Never serve a table with it: whoever knows the seeds predicts every roll.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "table"))

from blind_play import FIXED_TIME
from determinism import counter, seeds

from talespin.cli import main
from talespin.web import app


def fix_sources() -> None:
    """Make every app built from now on draw the same seeds and sources as any other run of this file."""
    numbers = itertools.count()
    defaults = app.create_app.__kwdefaults__
    assert defaults is not None and {"seeds", "sources"} <= defaults.keys()
    defaults["seeds"] = seeds("same")
    defaults["sources"] = {
        "clock": lambda: FIXED_TIME,
        "ids": counter("id-"),
        "tokens": counter("token-", 8),
        "nonces": lambda: f"{next(numbers):032x}",
    }


if __name__ == "__main__":
    fix_sources()
    sys.argv[0] = "talespin"
    main()
