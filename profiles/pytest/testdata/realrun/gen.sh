#!/bin/sh
# gen.sh regenerates the real-run pytest fixtures in this directory (layout:
# ../../../gotest/testdata/realrun/README.md) with Debian's python3-pytest
# (7.2.1, /usr/bin/python3). Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/pytest
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export PYTHONDONTWRITEBYTECODE=1
. "$here/../../../internal/realrun.sh"
mkdir -p proj/tests collect/tests
cat > proj/tests/test_calc.py <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 3


def test_add_wrong():
    assert add(2, 2) == 5


def test_divide():
    assert 1 / 0 == 0


def test_key():
    d = {"a": 1}
    assert d["b"] == 1


@pytest.mark.parametrize("n", range(40))
def test_many(n):
    assert n >= 0


def test_last_fails():
    assert [1, 2, 3] == [1, 2, 4]
X
cat > collect/tests/test_ok.py <<'X'
def test_fine():
    assert True
X
cat > collect/tests/test_broken.py <<'X'
import nosuchmodule


def test_never():
    pass
X
cat > collect/tests/test_syntax.py <<'X'
def test_bad(:
    pass
X
{
	echo 'import pytest'
	echo
	echo '@pytest.mark.parametrize("n", range(400))'
	echo 'def test_value(n):'
	echo '    assert n * 2 == n + n'
	echo
	echo 'def test_broken():'
	echo '    assert {"status": 200} == {"status": 503}'
} > proj/tests/test_big.py
P=/usr/bin/python3
rec fail "cd proj && $P -m pytest -p no:cacheprovider tests/test_calc.py"
rec fail-q "cd proj && $P -m pytest -q -p no:cacheprovider tests/test_calc.py"
rec exitfirst "cd proj && $P -m pytest -x -p no:cacheprovider tests/test_calc.py"
rec maxfail "cd proj && $P -m pytest --maxfail=2 -q -p no:cacheprovider tests/test_calc.py"
rec collect-error "cd collect && $P -m pytest -p no:cacheprovider"
rec collect-error-q "cd collect && $P -m pytest -q -p no:cacheprovider"
rec big-v "cd proj && $P -m pytest -v -p no:cacheprovider tests/test_big.py"
rec big-pass-v "cd proj && $P -m pytest -v -p no:cacheprovider tests/test_big.py -k 'not broken'"
rec exitfirst-v "cd proj && $P -m pytest -x -v -p no:cacheprovider tests/"
