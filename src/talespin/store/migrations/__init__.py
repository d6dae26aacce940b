"""Alembic migrations of the store, shipped inside the package and applied in code (see :mod:`..migrate`)."""
