#!/bin/sh
# gen.sh regenerates the large real pytest outputs the throughput benchmark
# (BenchmarkParse) reads. It writes a suite of eight modules (2,700 tests
# each: parametrized values with a failing residue and skips, and a class of
# parametrized words) to /tmp/ctxpt-bench/big, runs the real pytest over it
# with -v and without, and keeps both outputs gzipped here. Run it from this
# directory; it takes about 40 s of CPU.
set -eu
here=$(pwd)
rm -rf /tmp/ctxpt-bench && mkdir -p /tmp/ctxpt-bench/big
for m in 0 1 2 3 4 5 6 7; do
	cat > /tmp/ctxpt-bench/big/test_mod$m.py <<PY
import pytest


def helper(n):
    return {"n": n, "sq": n * n}


@pytest.mark.parametrize("n", range(2500))
def test_value(n):
    d = helper(n)
    if n % 97 == $m:
        pytest.skip("not supported on this platform")
    assert d["sq"] % 211 != $m + 5, f"square of {n} hit the bad residue"


class TestGroup:
    @pytest.mark.parametrize("word", ["alpha", "beta", "gamma", "delta"] * 50)
    def test_word(self, word):
        assert word.isalpha()
        assert len(word) < 6 or word != "gamma" or $m % 3
PY
done
cd /tmp/ctxpt-bench
COLUMNS=80 pytest -p no:cacheprovider -v big 2>&1 | gzip -9 > "$here/pytest-v.txt.gz" || true
COLUMNS=80 pytest -p no:cacheprovider big 2>&1 | gzip -9 > "$here/pytest-plain.txt.gz" || true
