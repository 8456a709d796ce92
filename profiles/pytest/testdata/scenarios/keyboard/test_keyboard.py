def test_before():
    assert True


def test_interrupt():
    raise KeyboardInterrupt


def test_after():
    assert True
