"""The API against its own OpenAPI document: schemathesis generates requests from the document,
and no answer may be a 500 or break the document's schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from shudu.web import create_app  # noqa: E402
from shudu.web.app import offered  # noqa: E402

app = create_app(Path(tempfile.mkdtemp()) / "schema.sqlite3", deadline=1.0, grace=0.5)
offered()  # worked out once, before the examples run
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=10_000,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_answer_is_a_500_or_breaks_the_schema(case: schemathesis.Case) -> None:
    response = case.call()
    # 501 (a feature this version lacks) and 503 (past the deadline) are answers the document
    # declares; a 500 is a failure of the server's own.
    assert response.status_code != 500, response.text
    case.validate_response(
        response, checks=[status_code_conformance, content_type_conformance, response_schema_conformance]
    )
