import warnings


def load_config(text):
    return dict(line.split("=", 1) for line in text.splitlines() if line)


def test_failure_with_stdout():
    print("loading config for region eu-west")
    print("FAILED test_fake.py::test_not_real - this line is captured output")
    print("Traceback (most recent call last):")
    print("=== 99 failed, 1 passed in 1.00s ===")
    config = load_config("region=eu-west\nretries=3\n")
    assert config["retries"] == "5", "retries not taken from config"


def test_passing_prints_failure_text():
    print("FAILED test_fake.py::test_also_not_real - captured, not a result")
    print("E   AssertionError: this is captured output too")
    print("Traceback (most recent call last):")
    assert load_config("a=1") == {"a": "1"}


def test_emits_warning():
    warnings.warn("load_config will require a schema", DeprecationWarning)
    assert load_config("") == {}
