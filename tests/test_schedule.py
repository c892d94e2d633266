"""The order ``make test`` deals its files in (tests/support/schedule.py): longest known first,
each file's tests in their own order, unknown files after in collection order; and the data's
regeneration from a junit xml."""
from __future__ import annotations

import json
from types import SimpleNamespace

from tests.support import schedule


def _items(*nodeids):
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_known_files_go_longest_first_and_unknown_ones_keep_their_place_after():
    items = _items("tests/a.py::t1", "tests/a.py::t2", "tests/new.py::t", "tests/b.py::t1", "tests/c.py::t",
                   "tests/b.py::t2", "tests/other.py::t")
    schedule.longest_files_first(items, {"tests/a.py": 1.0, "tests/b.py": 30.0, "tests/c.py": 5.0})
    assert [i.nodeid for i in items] == ["tests/b.py::t1", "tests/b.py::t2", "tests/c.py::t", "tests/a.py::t1",
                                         "tests/a.py::t2", "tests/new.py::t", "tests/other.py::t"]


def test_without_data_the_collection_order_stays():
    items = _items("tests/z.py::t", "tests/a.py::t1", "tests/a.py::t2")
    schedule.longest_files_first(items, {})
    assert [i.nodeid for i in items] == ["tests/z.py::t", "tests/a.py::t1", "tests/a.py::t2"]


def test_the_data_is_regenerated_from_a_junit_xml_per_file(tmp_path):
    (tmp_path / "tests" / "pkg").mkdir(parents=True)
    (tmp_path / "tests" / "pkg" / "test_x.py").write_text("")
    xml = tmp_path / "run.xml"
    xml.write_text('<testsuites><testsuite>'
                   '<testcase classname="tests.pkg.test_x" name="a" time="1.5"/>'
                   '<testcase classname="tests.pkg.test_x.TestK" name="b" time="2.0"/>'
                   '<testcase classname="tests.pkg.gone" name="c" time="9"/>'
                   '</testsuite></testsuites>')
    seconds = schedule.file_seconds_from_junit(xml, root=tmp_path)
    assert seconds == {"tests/pkg/test_x.py": 3.5}
    out = tmp_path / "durations.json"
    schedule.write_durations(seconds, out)
    assert schedule.known_durations(out) == {"tests/pkg/test_x.py": 3.5}
    assert json.loads(out.read_text())["files"] == {"tests/pkg/test_x.py": 3.5}


def test_missing_or_broken_data_orders_nothing(tmp_path):
    assert schedule.known_durations(tmp_path / "absent.json") == {}
    (tmp_path / "bad.json").write_text("{not json")
    assert schedule.known_durations(tmp_path / "bad.json") == {}


def test_the_suite_has_its_data():
    assert schedule.known_durations(), "tests/durations.json is missing or empty: make test deals files unordered"
