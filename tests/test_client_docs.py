"""docs/api.md lists every method of the Python client with its signature exactly as the package
defines it (issue 25): a method added, renamed or changed without the document fails here, and so
does a row for a method that no longer exists."""
import inspect
import re

from tabletop_client import Tabletop
from tests.support.stack import ROOT

DOC = (ROOT / "docs" / "api.md").read_text()
ROW = re.compile(r"^\| `(?P<name>[a-z_]+)\((?P<args>.*?)\)(?: -> (?P<ret>[^`]+))?` \|", re.M)


def rendered(name: str) -> str:
    signature = str(inspect.signature(getattr(Tabletop, name)))
    return name + signature.replace("(self, ", "(").replace("(self)", "()").replace("'", "")


def public_methods() -> list[str]:
    return [n for n, _ in inspect.getmembers(Tabletop, inspect.isfunction) if not n.startswith("_")]


def test_every_public_method_is_documented_with_its_signature():
    section = DOC[DOC.index("### Every method"):]
    missing = [rendered(n) for n in public_methods() if f"| `{rendered(n)}` |" not in section]
    assert not missing, f"docs/api.md lacks (or misspells the signature of): {missing}"


def test_no_row_documents_a_method_the_client_lacks():
    section = DOC[DOC.index("### Every method"):]
    documented = {m["name"] for m in ROW.finditer(section)}
    assert documented and documented <= set(public_methods())
