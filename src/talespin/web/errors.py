"""Every error becomes the same JSON body, ``{"error": {"code", "message", ...}}``, with its HTTP status.

This is the one place where the engine's errors meet HTTP codes:

==========================================  ======
error                                       status
==========================================  ======
no token, unknown token (``Unauthorized``)  401
token may not do that (``Forbidden``)       403
unknown campaign or system in the path      404
stale ``expected_version`` (``StaleVersion``, store ``VersionConflict``)  409
body over the cap (:mod:`.limits`)          413
malformed or illegal (``RulesError``, ``DiceError``, bad JSON)  422
==========================================  ======

Every error body has ``code``, ``message`` and ``rule`` (``null`` when no numbered rule applies); the codes
are listed in ``docs/errors.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..dice import DiceError
from ..store.port import StoreError, UnknownCampaign, VersionConflict
from ..systems import RulesError
from ..table.errors import CampaignNotFound, Forbidden, StaleVersion, TableError, Unauthorized
from ..table.salvage import render_safe

__all__ = ["UnknownSystem", "error_body", "install_error_handlers", "status_of"]


class UnknownSystem(TableError):
    """A path names a rule system that does not exist."""

    code = "unknown_system"


_STATUS: dict[type[Exception], int] = {
    Unauthorized: 401,
    Forbidden: 403,
    CampaignNotFound: 404,
    UnknownSystem: 404,
    UnknownCampaign: 404,
    StaleVersion: 409,
    VersionConflict: 409,
    RulesError: 422,
    DiceError: 422,
}


def status_of(error: Exception) -> int:
    """The HTTP status of one of the engine's errors (422 for anything malformed or illegal)."""
    for kind in type(error).__mro__:
        if kind in _STATUS:
            return _STATUS[kind]
    return 422


def error_body(error: Exception) -> dict[str, Any]:
    """The contract's ``{"error": {...}}`` for one of the engine's errors, always encodable as UTF-8 JSON."""
    body, _ = render_safe(_error_body(error))
    body["error"].setdefault("rule", None)
    return dict(body)


def _error_body(error: Exception) -> dict[str, Any]:
    if isinstance(error, RulesError):
        return {"error": error.to_json()}
    if isinstance(error, DiceError):
        body: dict[str, Any] = {"code": error.code, "rule": None, "message": error.message}
        chain = getattr(error, "chain", None)
        if chain is not None:
            body["chain"] = chain
        return {"error": body}
    if isinstance(error, TableError):
        return {"error": error.to_json()}
    code = getattr(error, "code", "error")
    return {"error": {"code": code, "message": str(error)}}


def _engine_error(_request: Request, error: Exception) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=status_of(error))


def _problem(detail: Mapping[str, Any]) -> str:
    """One validation problem in plain words: "name must not be empty", not the validator's own phrase."""
    where = ".".join(str(p) for p in detail.get("loc", ()) if p != "body") or "the body"
    kind = str(detail.get("type", ""))
    context = detail.get("ctx") or {}
    words = {
        "missing": f"{where} is missing",
        "string_too_short": f"{where} must not be empty",
        "string_too_long": f"{where} is too long: at most {context.get('max_length')} characters",
        "string_type": f"{where} must be text",
        "int_parsing": f"{where} must be a whole number",
        "int_type": f"{where} must be a whole number",
        "greater_than_equal": f"{where} must be at least {context.get('ge')}",
        "less_than_equal": f"{where} must be at most {context.get('le')}",
        "dict_type": f"{where} must be an object",
        "extra_forbidden": f"{where} is not expected here",
        "json_invalid": "the body is not valid JSON",
    }
    return words.get(kind, f"{where}: {detail.get('msg')}")


def _validation_error(_request: Request, error: Exception) -> JSONResponse:
    details = error.errors() if isinstance(error, RequestValidationError) else []
    problems = "; ".join(_problem(d) for d in details[:5])
    body: dict[str, Any] = {
        "code": "malformed",
        "rule": None,
        "message": f"the request was refused: {problems}",
    }
    if details:
        body["path"] = ".".join(str(p) for p in details[0].get("loc", ()) if p != "body") or None
    return JSONResponse({"error": body}, status_code=422)


_HTTP_CODES = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


def _http_error(_request: Request, error: Exception) -> JSONResponse:
    status = error.status_code if isinstance(error, HTTPException) else 500
    detail = error.detail if isinstance(error, HTTPException) else "error"
    if status == 400:  # the framework could not parse the body (e.g. JSON nested past the parser's limit)
        body = {"code": "malformed", "rule": None, "message": f"the request body could not be read: {detail}"}
        return JSONResponse({"error": body}, status_code=422)
    body = {"code": _HTTP_CODES.get(status, "http_error"), "rule": None, "message": str(detail)}
    headers = getattr(error, "headers", None)
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def _internal_error(_request: Request, _error: Exception) -> JSONResponse:
    body = {"code": "internal", "rule": None, "message": "the server met an error it did not expect"}
    return JSONResponse({"error": body}, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Map every error the app may meet to its JSON body and status."""
    for kind in (TableError, RulesError, DiceError, StoreError):
        app.add_exception_handler(kind, _engine_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)  # a bug: still JSON (and still logged)
