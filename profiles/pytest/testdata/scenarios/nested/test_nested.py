def test_inner_session_fails(pytester):
    pytester.makepyfile(
        test_inner="""
        def test_inner_a():
            assert 1 == 2

        def test_inner_b():
            print("Traceback (most recent call last):")
            assert True
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1, passed=1)
    # The outer test fails on purpose, so the inner session's output (its own
    # FAILURES section, short summary and counts line) is shown as captured stdout.
    assert result.ret == 0, "inner session failed"


def test_inner_session_passes(pytester):
    pytester.makepyfile(test_inner="def test_ok():\n    assert True\n")
    result = pytester.runpytest("-rA")
    result.assert_outcomes(passed=1)
