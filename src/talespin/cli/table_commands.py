"""``talespin serve`` (the live game table over HTTP), ``talespin verify`` (audit an exported record) and
``talespin recap`` (an exported record as a readable Markdown session record)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..table import EXPORT_FORMAT, verify_export
from ..table.pages import join_pages
from ..table.recap import recap_markdown
from .ascend_files import is_stdin
from .output import EXIT_INVALID, console, emit, fail

__all__ = ["register"]

_STATUS_STYLE = {"verified": "green", "mismatch": "bold red", "pending": "yellow", "unverifiable": "dim"}


def serve(
    *,
    db: Annotated[str, typer.Option("--db", help="Store URL: a SQLite file path/URL or postgresql://…")] = (
        "sqlite:///talespin.db"
    ),
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    workers: Annotated[
        int,
        typer.Option(help="Server processes sharing the port (more than 1 needs PostgreSQL).", min=1, max=64),
    ] = 1,
    schema: Annotated[
        str | None, typer.Option(help="PostgreSQL schema for the tables (created if missing).")
    ] = None,
    limits: Annotated[
        str,
        typer.Option(
            help="Rate limits: 'off', or changes to the defaults, e.g. 'create=100/hour,token=off' "
            "(buckets: create, join, campaign_join, token, client).",
        ),
    ] = "",
    origin: Annotated[
        list[str] | None,
        typer.Option(help="Another origin whose pages may open the WebSocket, e.g. https://table.example."),
    ] = None,
) -> None:
    """Run the game table: the HTTP API, live updates and the browser pages."""
    import uvicorn  # noqa: PLC0415 - the server loads only for this command
    from sqlalchemy.exc import SQLAlchemyError  # noqa: PLC0415

    from ..store import open_store  # noqa: PLC0415
    from ..web import create_app, served  # noqa: PLC0415
    from ..web.throttle import RateLimits  # noqa: PLC0415

    try:
        rate_limits = RateLimits.parse(limits)
    except ValueError as error:
        fail("bad_limits", f"--limits: {error}", as_json=False)

    if workers > 1 and served.is_sqlite(db):
        fail(
            "single_process_store",
            f"--workers {workers} needs PostgreSQL: a SQLite file serves one process, and live updates "
            "would reach only the clients of the process that made them; use --db postgresql://…",
            as_json=False,
        )
    try:
        claim = served.claim_sqlite(db)  # held while this process lives
        if workers == 1:
            app = create_app(
                db, schema=schema, limits=rate_limits, origins=origin or (), steady_collection=True
            )
        else:
            open_store(db, schema=schema).close()  # migrate once, and report a bad URL here, not N times
    except served.SingleProcessStore as error:
        fail("single_process_store", str(error), as_json=False)
    except (SQLAlchemyError, OSError, ValueError) as error:
        fail("bad_store", f"cannot open the store {db!r}: {error}", as_json=False)
    shown = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
    processes = "" if workers == 1 else f", {workers} processes"
    console.print(
        f"[bold]talespin table[/] on [bold cyan]http://{shown}:{port}/[/]  (store: {db}{processes})",
        highlight=False,
        soft_wrap=True,
    )
    # Live frames are a few hundred bytes of JSON: compressing each costs more CPU than it saves on the wire.
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "access_log": False,
        "ws_per_message_deflate": False,
    }
    try:
        if workers == 1:
            uvicorn.run(app, **options)
        else:
            os.environ[served.DB_VARIABLE] = db
            os.environ[served.SCHEMA_VARIABLE] = schema or ""
            os.environ[served.LIMITS_VARIABLE] = limits
            os.environ[served.ORIGINS_VARIABLE] = " ".join(origin or ())
            uvicorn.run("talespin.web.served:worker_app", factory=True, workers=workers, **options)
    except SystemExit as stopped:  # uvicorn exits 1 or 3 when it cannot listen
        if stopped.code not in (0, None):
            fail("cannot_listen", f"cannot listen on {host}:{port} (the server's reason is above)", False)
        raise
    finally:
        if claim is not None:
            claim.close()


def _render(report: dict[str, Any]) -> None:
    table = Table(title="talespin verify")
    for column in ("version", "what", "dice", "seed", "status", "detail"):
        table.add_column(column)
    for row in [*report["record"], *report["seeds"], *report["rolls"], *report["receipts"]]:
        style = _STATUS_STYLE.get(row["status"], "")
        seed = "" if row["seed_number"] is None else f"#{row['seed_number']}"
        status = f"[{style}]{row['status']}[/]"
        table.add_row(str(row["version"]), row["what"], row["dice"], seed, status, row["detail"])
    console.print(table)
    if not report["ok"]:
        verdict = f"[bold red]{report['mismatches']} mismatch(es)[/]"
    elif report["pending"] or report["unverifiable"]:
        verdict = "[bold yellow]no mismatch, but not everything could be checked[/]"
    else:
        verdict = "[bold green]all verified[/]"
    console.print(
        f"{verdict}: {report['verified']} verified, {report['mismatches']} mismatched, "
        f"{report['pending']} pending (seed not revealed yet), {report['unverifiable']} unverifiable"
    )


def _read(path: Path, as_json: bool) -> Any:
    """The JSON of an export or a receipt; ``-`` reads standard input."""
    name = "standard input" if is_stdin(path) else str(path)
    try:
        text = sys.stdin.buffer.read().decode("utf-8") if is_stdin(path) else path.read_text(encoding="utf-8")
        value = json.loads(text)
    except OSError as error:
        fail("unreadable_file", f"cannot read {name}: {error.strerror or error}", as_json)
    except UnicodeDecodeError:
        fail("unreadable_file", f"cannot read {name}: it is not UTF-8 text", as_json)
    except (ValueError, RecursionError) as error:
        fail("bad_export", f"{name} is not JSON: {str(error)[:200]}", as_json)
    return value


def verify(
    export: Annotated[
        list[Path],
        typer.Argument(help="A JSON export (the GM's, for a full check), or all its pages; - reads stdin."),
    ],
    receipt: Annotated[
        list[Path] | None,
        typer.Option("--receipt", help="A receipt of chain heads a client was shown (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Check an exported record: its hash chain, every commitment and server roll, and each receipt.

    An export downloaded in pages (``?after=…``) is checked whole when every page is given. Files of any
    size are read (the size limit of sheets and scripts does not apply to an export).

    Exit 0 when everything verified; 1 on any mismatch; 3 when nothing is wrong but something could not
    be checked (a seed not revealed yet, entries hidden from a player's export, a chain-less old export);
    2 when a file is not an export or a receipt.
    """
    pages = [_read(path, as_json) for path in export]
    receipts = [(str(path), _read(path, as_json)) for path in receipt or []]
    named = " + ".join(str(path) for path in export)
    try:
        if not all(isinstance(page, dict) for page in pages):
            raise ValueError("the file holds no JSON object")
        record = pages[0] if len(pages) == 1 else join_pages(pages)
        report = verify_export(record, receipts).to_json()
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        fail("bad_export", f"{named} or a receipt is not what verify reads: {str(error)[:300]}", as_json)
    except RecursionError:
        fail("bad_export", f"{named} is not a talespin export: its JSON nests too deep", as_json)
    emit(report, as_json, lambda: _render(report))
    if report["exit_code"] != 0:
        raise typer.Exit(EXIT_INVALID if report["exit_code"] == 1 else report["exit_code"])


def recap(
    export: Annotated[
        Path, typer.Argument(help="A JSON export of a campaign (the GM's or a player's); - reads stdin.")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the Markdown here instead of printing it.")
    ] = None,
) -> None:
    """Write an exported record as a session recap in Markdown: scenes, rolls with their dice, Triggers,
    Crisis and Rising Tension, with names. It tells what the export holds: a player's export, a player's
    recap. Exit 2 when the file is not a talespin export."""
    record = _read(export, False)
    if not isinstance(record, dict) or record.get("format") != EXPORT_FORMAT:
        fail("bad_export", f"{export} is not a talespin export (format {EXPORT_FORMAT})", False)
    try:
        text = recap_markdown(record)
    except RecursionError:
        fail("bad_export", f"{export} is not a talespin export: its JSON nests too deep", False)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        fail("unwritable_file", f"cannot write {out}: {error.strerror or error}", False)
    console.print(f"Recap written to {out}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``verify`` and ``recap`` to ``app``."""
    app.command("serve")(serve)
    app.command("verify")(verify)
    app.command("recap")(recap)
