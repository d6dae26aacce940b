"""How long a real server takes to serve a 50,000-event campaign again after a restart, from its snapshot.

A campaign of 50,000 events (notes, then two Tests and a last note: ``tests/browser/long_campaign.py``) is
written into a SQLite file. A ``talespin serve`` process is started on it and asked for the GM's state, which
folds the whole log once and persists the campaign's snapshot; it is stopped. Then, three times, a new
process is started on the same file and timed:

* ``restart_50k_events_load``: seconds a fresh store and table service (what a new server builds before it
  answers its health check: ``load_all``) take to load the campaign from its snapshot and the events after
  it, in this process (target < 1 s).
* ``restart_50k_events_state``: seconds from the restarted server answering its health check to the GM's
  first ``GET /state`` answered.
* ``restart_50k_events_first_page``: the first page of the newest 200 events that follows it, what the
  table page reads next.
* ``restart_50k_events_from_spawn``: seconds from spawning the process to that state answered (this adds the
  interpreter's and the web stack's start-up).

Each is the median of the three restarts.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from talespin.store import open_store
from talespin.table import TableService

Figure = float | int | str

EVENTS = 50_000
RESTARTS = 3
BROWSER_TESTS = Path(__file__).resolve().parents[1] / "tests" / "browser"


def run() -> dict[str, Figure]:
    """Build the campaign, serve it once to persist its snapshot, then time three restarts."""
    sys.path.insert(0, str(BROWSER_TESTS))
    from long_campaign import build  # noqa: PLC0415 - the browser tests' campaign builder
    from serving import serving  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="talespin-bench-restart-") as name:
        folder = Path(name)
        campaign = build(folder / "talespin.db", events=EVENTS)
        headers = {"Authorization": f"Bearer {campaign.gm_token}"}
        base = f"/api/campaigns/{campaign.id}"
        with serving(folder) as url:  # the first start folds the whole log and saves the snapshot
            httpx.get(url + base + "/state", headers=headers, timeout=120).raise_for_status()
        loads = []
        for _ in range(RESTARTS):
            store = open_store(f"sqlite:///{folder / 'talespin.db'}")
            started = time.perf_counter()
            TableService(store).load_all()
            loads.append(time.perf_counter() - started)
            store.close()
        states, pages, spawned = [], [], []
        for _ in range(RESTARTS):
            started = time.perf_counter()
            with serving(folder) as url:
                up = time.perf_counter()
                answer = httpx.get(url + base + "/state", headers=headers, timeout=120)
                answer.raise_for_status()
                done = time.perf_counter()
                assert answer.json()["version"] == campaign.version
                after = max(campaign.version - 200, 0)
                newest = f"{url}{base}/events?after={after}&limit=200"
                page = httpx.get(newest, headers=headers, timeout=120)
                page.raise_for_status()
                pages.append(time.perf_counter() - done)
            states.append(done - up)
            spawned.append(done - started)
    return {
        "restart_50k_events_load": round(statistics.median(loads), 3),
        "restart_50k_events_state": round(statistics.median(states), 3),
        "restart_50k_events_first_page": round(statistics.median(pages), 3),
        "restart_50k_events_from_spawn": round(statistics.median(spawned), 3),
    }


if __name__ == "__main__":
    print(run())
