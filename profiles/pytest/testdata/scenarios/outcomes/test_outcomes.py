import warnings

import pytest


def test_pass():
    assert True


@pytest.mark.skip(reason="not implemented yet")
def test_skip():
    assert False


@pytest.mark.xfail(reason="flaky upstream")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="fixed upstream")
def test_xpass():
    assert True


@pytest.mark.parametrize("n", [1, 2])
def test_warns(n):
    warnings.warn(f"deprecated call {n}", DeprecationWarning)
    assert n
