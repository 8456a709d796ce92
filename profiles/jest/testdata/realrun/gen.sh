#!/bin/sh
# gen.sh regenerates the real-run jest fixtures in this directory (layout:
# ../../../gotest/testdata/realrun/README.md): jest 29 from npm on node 20,
# in a scratch project. Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/jestproj
mkdir -p "$work"
cd "$work"
[ -d node_modules/jest ] || { npm init -y >/dev/null && npm install --no-audit --no-fund jest@29 >/dev/null; }
. "$here/../../../internal/realrun.sh"
rm -rf __tests__
mkdir -p __tests__
cat > sum.js <<'X'
module.exports = (a, b) => a + b;
X
cat > __tests__/sum.test.js <<'X'
const sum = require('../sum');

describe('sum', () => {
  test('adds', () => {
    expect(sum(1, 2)).toBe(3);
  });
  test('adds wrong', () => {
    expect(sum(2, 2)).toBe(5);
  });
  test('objects', () => {
    expect({ a: sum(1, 1), b: [1, 2] }).toEqual({ a: 2, b: [1, 3] });
  });
});
X
cat > __tests__/throws.test.js <<'X'
test('throws', () => {
  JSON.parse('{not json');
});
X
{
	echo "describe('many', () => {"
	i=1
	while [ $i -le 150 ]; do
		echo "  test('case $i', () => { expect($i * 2).toBe($i + $i); });"
		i=$((i + 1))
	done
	echo "});"
} > __tests__/many.test.js
rec fail "npx jest --ci"
rec fail-verbose "npx jest --ci --verbose"
rec pass-verbose "npx jest --ci --verbose __tests__/many.test.js"
