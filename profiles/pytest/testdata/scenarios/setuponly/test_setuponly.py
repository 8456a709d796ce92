import pytest


@pytest.fixture
def service():
    raise TimeoutError("service did not start within 5s")


def test_needs_service(service):
    assert service
