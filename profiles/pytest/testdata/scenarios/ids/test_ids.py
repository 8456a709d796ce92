import pytest


@pytest.mark.parametrize(
    "text",
    ["plain", "two words", "naïve", "a::b", "dots.in.id", "x-y"],
    ids=["plain", "two words", "naïve", "a::b", "dots.in.id", "x-y"],
)
def test_param_ids(text):
    assert text != "two words" and text != "a::b"


class TestOuter:
    class TestInner:
        @pytest.mark.parametrize("v", [1.5, 2.5])
        def test_nested_class(self, v):
            assert v < 2
