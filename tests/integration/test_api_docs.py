"""Each service serves readable, interactive documentation of its OpenAPI document at /docs, with
every asset from the service itself (no CDN: it works with no network access)."""
import re

import pytest
import requests

SERVICES = ["matchmaking", "rules", "scoring"]


@pytest.mark.parametrize("service", SERVICES)
def test_the_docs_page_and_its_assets_are_served_locally(stack, service):
    base = stack.urls[service]
    page = requests.get(f"{base}/docs")
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    links = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert links and not [u for u in links if "//" in u], links  # nothing from another host
    assert "/openapi.json" in page.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert f"/docs/assets/{asset}" in links
        got = requests.get(f"{base}/docs/assets/{asset}")
        assert got.status_code == 200 and len(got.content) > 1000
    spec = requests.get(f"{base}/openapi.json").json()
    assert spec["paths"]


def test_an_unknown_docs_asset_is_a_404_problem(stack):
    r = requests.get(f"{stack.rules}/docs/assets/../../etc/passwd")
    assert r.status_code == 404
    r = requests.get(f"{stack.rules}/docs/assets/index.j2")
    assert r.status_code == 404 and r.headers["Content-Type"].startswith("application/problem+json")


def test_the_rules_document_lists_the_index_export_and_history(stack):
    paths = requests.get(f"{stack.rules}/openapi.json").json()["paths"]
    assert {"/v1/matches", "/v1/matches/{match_id}/export", "/v1/players/{player_id}/matches"} <= set(paths)


def _normalized(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


def test_docs_api_md_documents_every_path_every_service_serves(stack):
    from tests.support.stack import ROOT

    text = (ROOT / "docs/api.md").read_text()
    documented = {_normalized(p) for p in re.findall(r"`(?:GET|POST|DELETE|PUT|PATCH) (/v1/[^`?\s]*|/healthz|/readyz)", text)}
    for service in SERVICES:
        served = {_normalized(p) for p in requests.get(f"{stack.urls[service]}/openapi.json").json()["paths"]}
        assert served <= documented, (service, served - documented)


def test_the_readme_points_only_inside_the_repository():
    from tests.support.stack import ROOT

    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme and "docs/api.md" in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
