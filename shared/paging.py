"""One pagination style for every list the API answers (docs/api.md, "Paging").

A page is asked for with ``limit`` and an opaque ``cursor``; the answer names the next page in the
RFC 8288 ``Link`` header (``rel="next"``, the URL to fetch as it is) and the same cursor in
``X-Next-Cursor``, both absent on the last page. Where the body is an object it also carries
``next_cursor`` (null on the last page), so a client may read either. This is the style of GitHub's
API and of our own match index; a cursor, unlike an offset, stays right while the list grows.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import request

HEADERS = {
    "X-Next-Cursor": {"description": "the cursor of the next page (absent on the last page)",
                      "schema": {"type": "string"}},
    "Link": {"description": 'the next page as <url>; rel="next" (absent on the last page)',
             "schema": {"type": "string"}},
}


def next_page_headers(next_cursor: str | None, limit: int) -> dict[str, str]:
    """The ``Link`` and ``X-Next-Cursor`` headers naming the page after this request's, if any."""
    if not next_cursor:
        return {}
    query = {k: v for k, v in request.args.items() if k not in ("cursor", "after")}
    query.update(cursor=next_cursor, limit=limit)
    return {"X-Next-Cursor": next_cursor, "Link": f'<{request.base_url}?{urlencode(query)}>; rel="next"'}
