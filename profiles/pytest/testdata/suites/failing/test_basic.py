from helpers import add, ratio


def test_addition():
    assert add(2, 3) == 5


def test_string_upper():
    assert "ctx".upper() == "CTX"


def test_assertion_failure():
    assert add(2, 2) == 4


class TestRatio:
    def test_ratio_ok(self):
        assert ratio(10, 5) == 2

    def test_uncaught_exception(self):
        assert ratio(10, 0) == 0
