"""The site as an installable app (API.md § Fourth round, "The phone"): the web app manifest,
the service worker at the root (its scope is the whole site) and the offline page it keeps.
What they hold is app/web/install.py's."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.api.caching import REVALIDATE
from app.web.install import manifest, service_worker
from app.web.render import render_offline

router = APIRouter(include_in_schema=False)

MANIFEST_TYPE = "application/manifest+json"
# Asked again at each visit: a new release's worker (a new list, a new cache) is picked up
# on the next one.
FRESH = {"Cache-Control": REVALIDATE}


@router.get("/manifest.webmanifest")
async def web_manifest() -> Response:
    body = json.dumps(manifest(), ensure_ascii=False, separators=(",", ":"))
    # In the reader's language: the page links it with its own ?lang=.
    headers = {**FRESH, "Vary": "Accept-Language, Cookie"}
    return Response(body, media_type=MANIFEST_TYPE, headers=headers)


@router.get("/sw.js")
async def worker() -> Response:
    return Response(service_worker(), media_type="text/javascript", headers=FRESH)


@router.get("/offline", response_class=HTMLResponse)
async def offline() -> HTMLResponse:
    return HTMLResponse(render_offline())
