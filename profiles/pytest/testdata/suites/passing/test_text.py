import pytest

WORDS = [f"word{i:03d}" for i in range(200)]


@pytest.mark.parametrize("word", WORDS)
def test_round_trip(word):
    assert word.encode("utf-8").decode("utf-8") == word
