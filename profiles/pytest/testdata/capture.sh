#!/bin/sh
# Regenerates testdata/out/ by running the real pytest (Debian python3-pytest,
# pytest 7.2.1 on Python 3.11) on the suites and scenarios in this directory.
#
#   sh testdata/capture.sh            (from profiles/pytest)
#
# Each run copies its suite to /tmp/ctxpt-capture/<suite> (so the absolute paths
# pytest prints are the same on every machine), runs pytest there with a fixed
# environment, and writes out/<name>.out (stdout), out/<name>.err (stderr, only
# when non-empty) and one line of out/INDEX: name, exit status, suite, arguments.
# Runs named pty-* run under a pseudo-terminal through script(1): pytest colours
# by default there and the terminal turns every newline into CRLF.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
root=/tmp/ctxpt-capture
pytest=${PYTEST:-/usr/bin/pytest}

rm -rf "$root" "$out"
mkdir -p "$root" "$out"
cp -r "$here"/suites/* "$here"/scenarios/* "$root"/
: >"$out/INDEX"

run() { # name suite args...
	name=$1 suite=$2
	shift 2
	(
		cd "$root/$suite" || exit 125
		env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 COLUMNS=80 \
			"$pytest" -p no:cacheprovider "$@" >"$out/$name.out" 2>"$out/$name.err"
	)
	code=$?
	[ -s "$out/$name.err" ] || rm -f "$out/$name.err"
	printf '%s\t%s\t%s\t%s\n' "$name" "$code" "$suite" "$*" >>"$out/INDEX"
}

runpty() { # name suite args...
	name=$1 suite=$2
	shift 2
	(
		cd "$root/$suite" || exit 125
		env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 COLUMNS=120 TERM=xterm-256color \
			script -qec "$pytest -p no:cacheprovider $*" /dev/null >"$out/$name.out" 2>/dev/null
	)
	code=$?
	printf '%s\t%s\t%s\t%s\n' "$name" "$code" "$suite" "$*" >>"$out/INDEX"
}

# The failing suite in every supported mode.
run failing-plain failing
run failing-q failing -q
run failing-qq failing -qq
run failing-v failing -v
run failing-vv failing -vv
run failing-rA failing -rA
run failing-ra failing -ra
run failing-tb-short failing --tb=short
run failing-tb-long failing -q --tb=long
run failing-tb-line failing -q --tb=line
run failing-tb-no failing -q --tb=no
run failing-tb-native failing --tb=native
run failing-x failing -x
run failing-color failing -q --color=yes
run failing-color-v failing -v --color=yes -rA
run failing-interrupted failing -q -o addopts=
run failing-interrupted-v failing -v -o addopts=
run failing-deselect failing -q -k "square or addition"
run failing-s failing -q -s
run failing-s-v failing -v -s
runpty pty-failing failing -q
runpty pty-failing-v failing -v

# The passing suite.
run passing-plain passing
run passing-q passing -q
run passing-qq passing -qq
run passing-v passing -v
run passing-rA passing -q -rA
run passing-color passing --color=yes
run passing-x passing -x -q
runpty pty-passing passing

# Scenarios: one behaviour each.
run errors errors
run errors-q errors -q -rA
run errors-native errors -q --tb=native
run keyboard keyboard
run keyboard-q keyboard -q
run exitcall exitcall -v
run internal internal -q
run nested nested -p pytester
run nested-rA nested -p pytester -q -rA
run outcomes outcomes -rA
run outcomes-q outcomes -q
run outcomes-v outcomes -v
run empty empty
run empty-q empty -q
run deselected-all outcomes -q -k no_test_matches_this
run conftesterr conftesterr
run setuponly setuponly -q
run ids ids -v
run ids-q ids -q
run usage outcomes --no-such-option
run notfound outcomes -q test_missing_file.py
run notfound-node outcomes -q test_outcomes.py::test_missing_name
