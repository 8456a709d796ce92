"""A test module that cannot be imported: pytest reports a collection error."""

import ctx_missing_module_for_tests  # noqa: F401


def test_never_collected():
    assert True
