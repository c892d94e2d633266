"""Which runs a test gets (tests/support/backends.py) and which of them ``make test-fast`` keeps
(tests/support/fast.py), checked on a small suite collected in a pytest of its own."""
import pytest

pytest_plugins = ["pytester"]

SUITE = '''
import pytest

def test_unit():
    pass

@pytest.mark.store
def test_store(r):
    pass

@pytest.mark.store
def test_store_without_redis():
    pass

@pytest.mark.store
def test_store_handing_the_server_to_a_process(r, redis_url):
    pass

@pytest.mark.store
@pytest.mark.real_redis("a command fakeredis lacks")
def test_store_on_a_real_server_only(r):
    pass

def test_not_a_store_test(r):
    pass

@pytest.mark.slow
@pytest.mark.store
def test_slow_store(r):
    pass
'''


def collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    pytester.makeconftest('pytest_plugins = ["tests.support.fixtures"]\n')
    pytester.makepyfile(test_suite=SUITE)
    pytester.makeini("[pytest]\nmarkers =\n  store\n  slow\n  real_redis(why)\n")
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *args)
    return sorted(line.split("::", 1)[1] for line in result.outlines if "::" in line)


def test_a_store_test_taking_r_runs_on_both_backends_unless_it_needs_a_real_server(pytester):
    assert collected(pytester) == [
        "test_not_a_store_test", "test_slow_store[fake]", "test_slow_store[real]",
        "test_store[fake]", "test_store[real]", "test_store_handing_the_server_to_a_process",
        "test_store_on_a_real_server_only", "test_store_without_redis", "test_unit",
    ]


def test_the_fast_loop_keeps_the_fake_runs_and_the_tests_without_a_server(pytester):
    # test_unit is outside UNIT (a file of its own here), so only the store tests qualify
    assert collected(pytester, "-p", "tests.support.fast") == ["test_store[fake]", "test_store_without_redis"]


def test_a_test_that_starts_a_redis_anyway_fails_in_the_fast_loop(pytester, tmp_path):
    pytester.makeconftest('pytest_plugins = ["tests.support.fixtures"]\n')
    pytester.makeini("[pytest]\nmarkers =\n  store\n")
    pytester.makepyfile(test_sneaky=f'''
import pytest
from shared import localredis

@pytest.mark.store
def test_starts_a_server():
    localredis.start({str(tmp_path / "redis")!r})
''')
    result = pytester.runpytest_inprocess("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "tests.support.fast")
    result.assert_outcomes(failed=1)
    assert "make test-fast starts no Redis server" in result.stdout.str()
    from shared import localredis
    assert localredis.start.__name__ == "start"  # given back once the run is over
