import time


def poll_status():
    time.sleep(0.2)
    return "pending"


def test_slow_failure():
    status = poll_status()
    assert status == "ready"
