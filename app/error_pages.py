"""Error pages for people: a browser that opens a mistyped address gets an HTML page with a way home.

The API answers its JSON error shape (CONTRACT.md) as before: an address under /api or /ws, or a
client that does not ask for HTML (curl, fetch, the bots), never gets a page. A browser's navigation
sends `Accept: text/html,...`; that is what tells the two apart.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

from app.i18n import N_, gettext

HEADINGS = {
    404: N_("Nothing here"),
    405: N_("Nothing here"),
}
WORDS = {
    404: N_("There is nothing at this address. The link may be mistyped."),
    405: N_("There is nothing to open at this address. The link may be mistyped."),
}


def wants_html(request: Request) -> bool:
    """Whether a person's browser asked for this address (and not the API or a script)."""
    path = request.url.path
    if path == "/api" or path == "/ws" or path.startswith(("/api/", "/ws/")):
        return False
    if request.method not in ("GET", "HEAD"):
        return False
    accept = request.headers.get("accept", "")
    return "text/html" in accept


def html_error(request: Request, status: int) -> HTMLResponse:
    """The page for a browser: what went wrong in words and the way back to the lobby."""
    from app.routes.pages import templates  # the pages' own templates and static() helper

    context = {
        "what": gettext(WORDS.get(status, WORDS[404])),
        "heading": gettext(HEADINGS.get(status, HEADINGS[404])),
    }
    return templates.TemplateResponse(request, "not_found.html", context, status_code=status)
