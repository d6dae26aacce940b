"""Apply the store's Alembic migrations in code: no ``alembic.ini`` is needed at run time.

>>> from sqlalchemy import create_engine
>>> engine = create_engine("sqlite://")
>>> with engine.begin() as connection:
...     upgrade(connection)
...     current_revision(connection) == head_revision()
True
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

__all__ = ["MIGRATIONS", "alembic_config", "current_revision", "head_revision", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")
"""The directory of migration scripts inside the installed package."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration built in code, pointing at the packaged scripts."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Migrate the database behind ``connection`` to ``revision`` (the newest by default)."""
    command.upgrade(alembic_config(connection), revision)


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at, or ``None`` before the first migration."""
    return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision shipped with the package."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
