#!/bin/sh
# gen.sh regenerates the large real jest outputs the throughput benchmark
# (BenchmarkParse) reads: a scratch project of 40 test files (5 describes of
# 40 tests each: toBe and toEqual failures, skips) in /tmp/jest-bench, run
# with the real jest (npm install jest@30; jest 30.5.2 on Node 20.20.2 here)
# with and without --verbose. jest reports on stderr. Run it from this
# directory.
set -eu
here=$(pwd)
rm -rf /tmp/jest-bench && mkdir -p /tmp/jest-bench/src && cd /tmp/jest-bench
npm init -y > /dev/null && npm install --no-audit --no-fund jest@30 > /dev/null
python3 - <<'PY'
for f in range(40):
    lines = ["function sq(n) { return n * n; }", "", f"describe('module {f}', () => {{"]
    for g in range(5):
        lines.append(f"  describe('group {g}', () => {{")
        for i in range(40):
            if (i * 7 + g + f) % 97 == 0:
                lines.append(f"    test('value {i} squares', () => {{ expect(sq({i})).toBe({i * i + 1}); }});")
            elif (i + f) % 53 == 0:
                lines.append(f"    test('object {i}', () => {{ expect({{n: {i}, sq: sq({i})}}).toEqual({{n: {i}, sq: {i * i}, extra: true}}); }});")
            elif (i + g) % 71 == 0:
                lines.append(f"    test.skip('skipped {i}', () => {{}});")
            else:
                lines.append(f"    test('value {i} squares', () => {{ expect(sq({i})).toBe({i * i}); }});")
        lines.append("  });")
    lines.append("});")
    open(f"src/mod{f}.test.js", "w").write("\n".join(lines) + "\n")
PY
CI=true npx jest --ci 2>&1 >/dev/null | gzip -9 > "$here/jest.stderr.gz" || true
CI=true npx jest --ci --verbose 2>&1 >/dev/null | gzip -9 > "$here/jest-verbose.stderr.gz" || true
