import pytest


class Database:
    def __init__(self, url):
        self.url = url

    def connect(self):
        raise ConnectionError(f"cannot reach {self.url}")


@pytest.fixture
def broken_db():
    db = Database("db.invalid:5432")
    db.connect()
    return db


@pytest.fixture
def numbers():
    return [3, 1, 2]
