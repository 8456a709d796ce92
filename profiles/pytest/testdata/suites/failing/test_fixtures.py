def test_fixture_ok(numbers):
    assert sorted(numbers) == [1, 2, 3]


def test_uses_broken_fixture(broken_db):
    assert broken_db.url
