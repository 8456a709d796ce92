def pytest_runtest_logreport(report):
    if report.when == "call":
        raise ValueError("plugin crashed while logging " + report.nodeid)
