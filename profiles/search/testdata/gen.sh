#!/bin/sh
# gen.sh regenerates the captured search outputs in this directory by running
# the real tools (GNU grep, ripgrep, the silver searcher, git grep) over a
# small fixture tree. Terminal runs go through script(1) with output
# post-processing off, as ctx's raw pty does, so rg and ag choose headings and
# colour exactly as they do under ctx. Each case writes NAME.out (stdout) and,
# when not empty, NAME.err (stderr); cases.txt lists NAME, exit status, argv.
set -eu
export PAGER=cat GIT_PAGER=cat LC_ALL=C.UTF-8
here=$(cd "$(dirname "$0")" && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cd "$tree"

mkdir -p src/util docs
cat > src/main.go <<'X'
package main

// TODO: parse flags
func main() {
	run() // TODO handle the error
}

func run() error { return nil }
X
cat > src/util/strings.go <<'X'
package util

// Reverse reverses s.
// TODO: runes, not bytes
func Reverse(s string) string { return s }
X
cat > "docs/release notes.md" <<'X'
# Release notes

- TODO: FAILED tests section
- Traceback (most recent call last): TODO explain
X
cat > v1-2-3.txt <<'X'
x
TODO 1-2-3
X
printf 'no todo here\n' > README.md
printf 'ELF\000\001TODO\000\002' > data.bin
git init -q . && git add -A && git -c user.name=t -c user.email=t@e commit -qm init

: > "$here/cases.txt"
run() { # NAME MODE(pipe|pty) ARGV...
	name=$1 mode=$2; shift 2
	set +e
	if [ "$mode" = pty ]; then
		script -qec "stty -opost cols 200; $* 2>'$here/$name.err'" /dev/null > "$here/$name.out"
	else
		"$@" > "$here/$name.out" 2> "$here/$name.err"
	fi
	code=$?
	set -e
	[ -s "$here/$name.err" ] || rm -f "$here/$name.err"
	printf '%s\t%s\t%s\n' "$name" "$code" "$*" >> "$here/cases.txt"
}

run grep-rn pipe grep -rn --exclude-dir=.git TODO .
run grep-r pipe grep -r --exclude-dir=.git TODO .
run grep-rn-color pty grep --color=always -rn --exclude-dir=.git TODO .
run grep-c pipe grep -c TODO src/main.go src/util/strings.go README.md v1-2-3.txt
run grep-C1 pipe grep -rn -C1 TODO src v1-2-3.txt
run grep-C1-plain pipe grep -r -C1 TODO src v1-2-3.txt
run grep-n-single pipe grep -n TODO src/main.go
run grep-single pipe grep TODO src/main.go
run grep-none pipe grep -rn --exclude-dir=.git NOSUCHTHING .
run grep-missing pipe grep -n TODO nosuch.txt src/main.go
run grep-binary pipe grep -n TODO data.bin src/main.go
run grep-l pipe grep -rl --exclude-dir=.git TODO .
run grep-Z pipe grep -rnZ --exclude-dir=.git TODO src
run rg-heading pty rg --sort path TODO
run rg-heading-C1 pty rg --sort path -C1 TODO
run rg-pipe pipe rg --sort path TODO
run rg-no-heading pipe rg --sort path -n --no-heading TODO
run rg-json pipe rg --sort path --json TODO
run rg-count pipe rg --sort path -c TODO
run rg-binary pty rg TODO data.bin src/main.go
run rg-vimgrep pipe rg --sort path --vimgrep TODO
run rg-single pty rg TODO src/main.go
run rg-none pty rg NOSUCHTHING
run ag-group pty ag TODO
run ag-pipe pipe ag TODO
run git-grep-n pipe git grep -n TODO
run git-grep-color pty git -c color.ui=always grep -n TODO
run git-grep-heading pty git -c color.ui=always grep -n --heading --break TODO
run git-grep-heading-nobreak pipe git grep -n --heading TODO
run git-grep-plain pipe git grep TODO
