#!/bin/sh
# gitstatus.sh DIR [ROUNDS]: CPU (user+sys) per call of the git status
# variants a generation could use, 20 calls per variant per round,
# interleaved: what ctx runs (all), without the untracked scan (no), that
# plus a separate untracked listing (no+ls), the listing alone (ls), and
# ctx's call with core.untrackedCache=true (uc), which helps only when the
# index already holds the cache (git update-index --untracked-cache): under
# --no-optional-locks git reads it and never writes it, nor does ctx.
cd "$1" || exit 1
S="--no-optional-locks status --porcelain=v2 -z --branch --no-renames --ignore-submodules=dirty"
v() {
	name=$1; shift
	/usr/bin/time -f "$name %U %S" sh -c "for i in \$(seq 20); do $*; done" 2>&1 >/dev/null |
		awk '{printf "%-6s %.1f ms CPU per call\n", $1, ($2+$3)*1000/20}'
}
for r in $(seq "${2:-3}"); do
	v all "git $S --untracked-files=all >/dev/null"
	v no "git $S --untracked-files=no >/dev/null"
	v no+ls "git $S --untracked-files=no >/dev/null; git ls-files -o --exclude-standard -z >/dev/null"
	v ls "git ls-files -o --exclude-standard -z >/dev/null"
	v uc "git -c core.untrackedCache=true $S --untracked-files=all >/dev/null"
done
