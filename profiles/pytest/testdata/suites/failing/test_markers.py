import sys

import pytest


@pytest.mark.xfail(strict=True, reason="parser bug 12 should still be open")
def test_strict_xpass():
    assert "a,b".split(",") == ["a", "b"]


@pytest.mark.xfail(reason="known rounding issue")
def test_known_rounding():
    assert round(2.675, 2) == 2.68


@pytest.mark.skipif(sys.platform != "nonexistent-os", reason="only on nonexistent-os")
def test_platform_specific():
    assert False
