"""Where a durable command's time goes: the table server under load, sampled thread by thread.

Not a benchmark (``bench/run.py`` runs only ``bench_*.py``): a tool that explains the table figures. It runs
the app in this process (uvicorn, as ``talespin serve`` runs it) on a fresh SQLite file or PostgreSQL schema,
and a second process makes the load of ``bench_cluster``: 100 campaigns with 5 sockets each, then rounds of
saturation (100 clients sending commands as fast as answers come). Every thread of the server runs under its
own ``cProfile`` timed by that thread's CPU clock (``time.thread_time``), so waiting costs nothing and the
times add up to the server's CPU (cProfile's own overhead inflates Python calls against C code: read the
shares, not the absolute times).

    .venv/bin/python bench/profile_table.py [sqlite|postgres] [--top 40] [--rounds 3] [--no-profile]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from load import POSTGRES, drop_schema, free_port


class Profiles:
    """One cProfile per thread, each timed by its thread's own CPU clock (``time.thread_time``).

    :meth:`start` (before the server starts) profiles the calling thread, and every thread started later
    (the server's worker threads) from its first call, through ``threading.setprofile``; :meth:`clear`
    forgets what was counted so far (the load's set-up), so the report covers only the measured rounds.
    """

    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self._lock = threading.Lock()

    def _new(self) -> cProfile.Profile:
        profile = cProfile.Profile(time.thread_time)
        with self._lock:
            self.profiles.append(profile)
        return profile

    def _hook(self, *_: object) -> None:
        sys.setprofile(None)
        self._new().enable()

    def start(self) -> None:
        threading.setprofile(self._hook)
        self._new().enable()

    def clear(self) -> None:
        with self._lock:
            for profile in self.profiles:
                profile.clear()

    def report(self, top: int) -> str:
        out = io.StringIO()
        stats = pstats.Stats(self.profiles[0], stream=out)
        for profile in self.profiles[1:]:
            with contextlib.suppress(TypeError):  # a thread that made no call has no stats
                stats.add(profile)
        total = stats.total_tt  # type: ignore[attr-defined]
        out.write(f"server CPU profiled: {total:.2f} s in {len(self.profiles)} threads\n")
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(top)
        return out.getvalue()


_LOAD = """
import asyncio, sys, time
sys.path.insert(0, {bench!r})
import bench_cluster as c
from websockets.asyncio.client import connect

class At:
    port = {port}

async def main():
    server = At()
    tables = await c._setup(server, c.CAMPAIGNS, c.CLIENTS_PER_CAMPAIGN - 1)
    sockets = [await connect(c._ws(server, t, token), open_timeout=30) for t in tables for token in t.tokens]
    followers = [asyncio.ensure_future(c._follow(s, tables[i // c.CLIENTS_PER_CAMPAIGN]))
                 for i, s in enumerate(sockets)]
    print("ready", flush=True)
    clients = [c.Http(server.port) for _ in tables]
    rate, noop = await c._rounds(clients, tables, {rounds})
    print(f"commands/s {{rate:.1f}}, no-ops/s {{noop:.1f}}", flush=True)
    for s in sockets:
        await s.close()

asyncio.run(main())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", nargs="?", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-profile", action="store_true", help="only the rates, without cProfile")
    options = parser.parse_args()

    import uvicorn  # noqa: PLC0415

    from talespin.web import create_app  # noqa: PLC0415
    from talespin.web.throttle import RateLimits  # noqa: PLC0415

    directory = tempfile.TemporaryDirectory(prefix="talespin-profile-")
    schema = None
    if options.store == "sqlite":
        app = create_app(f"sqlite:///{Path(directory.name) / 'profile.db'}", limits=RateLimits.off())
    else:
        schema = f"talespin_profile_{secrets.token_hex(6)}"
        app = create_app(POSTGRES, schema=schema, limits=RateLimits.off())
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, ws_per_message_deflate=False
    )
    server = uvicorn.Server(config)
    profiles = Profiles()

    def load() -> None:
        code = _LOAD.format(bench=str(Path(__file__).parent), port=port, rounds=options.rounds)
        while not server.started:
            time.sleep(0.05)
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        for line in child.stdout:
            print("[load]", line.rstrip(), flush=True)
            if line.startswith("ready"):
                profiles.clear()
        child.wait()
        server.should_exit = True

    threading.Thread(target=load, daemon=True).start()
    if not options.no_profile:
        profiles.start()
    try:
        server.run()  # uvloop and httptools, as `talespin serve` runs
    finally:
        if schema is not None:
            drop_schema(schema)
        directory.cleanup()
    if not options.no_profile:
        print(profiles.report(options.top))
    os._exit(0)


if __name__ == "__main__":
    main()
