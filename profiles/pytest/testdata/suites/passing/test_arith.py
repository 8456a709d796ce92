import pytest


@pytest.mark.parametrize("n", range(300))
def test_square_is_non_negative(n):
    assert n * n >= 0


