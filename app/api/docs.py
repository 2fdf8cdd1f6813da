"""`/docs`: Swagger UI for the JSON API, from the files of the fastapi-offline package.

FastAPI's own page loads Swagger UI from a public CDN (no integrity hashes, and the CDN learns
who reads the docs); this one loads nothing from elsewhere and runs no inline script.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

SWAGGER_UI = Path(str(files("fastapi_offline") / "static"))
ASSETS = "/docs/assets"

router = APIRouter(include_in_schema=False)

_PAGE = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>All Fours API</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="{ASSETS}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-openapi="/openapi.json"></div>
  <script src="{ASSETS}/swagger-ui-bundle.js"></script>
  <script src="/static/docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
async def docs() -> HTMLResponse:
    return HTMLResponse(_PAGE)


def install(app: FastAPI) -> None:
    app.include_router(router)
    app.mount(ASSETS, StaticFiles(directory=SWAGGER_UI), name="docs-assets")
