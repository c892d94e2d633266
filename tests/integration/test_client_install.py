"""The client installs on its own (issue 25): ``pip install ./tabletop_client`` in a fresh virtual
environment, outside the checkout, gives a package with a version that talks to a real stack."""
import json
import shutil
import subprocess
import sys

import pytest

from tests.support.stack import ROOT

pytestmark = pytest.mark.slow

SCRIPT = """
import json, sys, tabletop_client
from tabletop_client import Tabletop
api = Tabletop(sys.argv[1], sys.argv[2])
me = api.register("installed-client")
print(json.dumps({"version": tabletop_client.__version__, "file": tabletop_client.__file__,
                  "games": sorted(g["id"] for g in api.games()), "me": api.me()["player_id"] == me.player_id}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the client pip-installed from a copy of its directory (no build files left in the tree)."""
    work = tmp_path_factory.mktemp("client-install")
    source = work / "tabletop_client"
    shutil.copytree(ROOT / "tabletop_client", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
    python = work / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(source)], check=True, cwd=work)
    elsewhere = work / "elsewhere"  # not the directory holding the source copy, so the import is the installed one
    elsewhere.mkdir()
    return python, elsewhere


def test_pip_install_of_the_client_directory_gives_a_versioned_package(installed):
    python, work = installed
    out = subprocess.run([str(python), "-c", "import importlib.metadata as m, tabletop_client as t;"
                          "print(m.version('tabletop-client'), t.__version__, t.__file__)"],
                         cwd=work, check=True, capture_output=True, text=True).stdout.split()
    assert out[0] == out[1] and out[0].count(".") == 2
    assert "site-packages" in out[2]


def test_the_installed_client_plays_against_a_real_stack(installed, stack):
    python, work = installed
    proc = subprocess.run([str(python), "-c", SCRIPT, stack.mm, stack.rules], cwd=work, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert "site-packages" in answer["file"]
    assert {"arkon", "rise-of-tribes"} <= set(answer["games"])
    assert answer["me"] is True
