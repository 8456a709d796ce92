import pytest


@pytest.fixture
def resource():
    yield "handle"
    raise RuntimeError("resource did not close cleanly")


def test_teardown_error(resource):
    assert resource == "handle"


def test_missing_fixture(no_such_fixture):
    assert no_such_fixture


def parse_port(text):
    try:
        return int(text)
    except ValueError as err:
        raise KeyError("port") from err


def test_chained_exception():
    parse_port("eighty")


def test_explicit_fail():
    pytest.fail("explicit failure: budget exceeded")


def test_fails_then_teardown_error(resource):
    assert resource == "other"
