#!/bin/sh
# torture.sh: kill -9 injections, concurrency and a final check against the
# store's first promise — every listed run reads back, byte for byte.
#
#   bench/torture/torture.sh [-n INJECTIONS] [-c CONCURRENT] [-b BIG_LINES] [-s SEED]
#
# Environment: CTX (the ctx binary, default `ctx`), TMPDIR (the workspace is
# made there and removed unless KEEP=1).
#
# Phase 1, injections: each one starts a ctx command in a process group of
# its own and, unless it is spared, kills the whole group with SIGKILL after a
# random delay. Most are `ctx run` (pty or --pipe) of one of four outputs
# (1 KB, 300 KB of text, 3 MB of text, 12 MB of random bytes: small, framed,
# many frames, packed), so the kill lands in capture, digest, packing,
# commit or clean-up; the rest kill `ctx ls` (recovery of what the others
# left), `ctx gc --keep 0` (sweep, orphan packs) and `ctx compact`. A spared
# `ctx run` must exit with its command's status (0).
#
# Phase 2, concurrency: CONCURRENT `ctx run`s at once (exit i mod 7), two
# seconds into a capture of seq 1..BIG_LINES, beside a loop of `ctx gc` and
# `ctx compact`; each must exit with its command's own status.
#
# Verification: every listed execution's run is read back whole
# (`ctx get --full --raw`) and compared with the output its command printed (a run
# stored from a spool after a kill may hold a prefix of it, never other
# bytes); every spared injection must be listed; no injection may be listed
# twice; `ctx check --read-data` must find no damage.
#
# The last line is the summary the tests and BENCHMARKS.md read:
#   torture: injections N killed K spared S concurrent C/C listed L
#   lost 0 unreadable 0 wrong 0 duplicates 0 bad-exit 0 check ok
set -u

n=200 conc=64 big=2000000 seed=1
while getopts n:c:b:s: opt; do
	case $opt in
	n) n=$OPTARG ;;
	c) conc=$OPTARG ;;
	b) big=$OPTARG ;;
	s) seed=$OPTARG ;;
	*) echo "usage: $0 [-n INJECTIONS] [-c CONCURRENT] [-b BIG_LINES] [-s SEED]" >&2; exit 2 ;;
	esac
done
CTX=${CTX:-ctx}
case $CTX in /*) ;; *) CTX=$(command -v "$CTX") || { echo "torture: no ctx binary" >&2; exit 2; } ;; esac

W=$(mktemp -d "${TMPDIR:-/tmp}/ctx-torture.XXXXXX") || exit 2
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$W"' EXIT
cd "$W" || exit 2
export CTX_STORE="$W/.ctx" # never an enclosing workspace's store
mkdir fx out
export CTX_NO_COMPACT=1 # compaction is injected on its own (and looped in phase 2)

# The outputs, and the commands that print them.
head -c 1000 /dev/urandom | od -An -tx1 >fx/small
seq 1 60000 | sed 's/^/line /' >fx/text300k
seq 1 450000 | sed 's/^/row /' >fx/text3m
head -c 12000000 /dev/urandom >fx/rand12m
sizes="small text300k text3m rand12m"

# rand N K: a pseudo-random number in [0, N) for draw K of injection $i,
# from the seed (it runs in a subshell: no state survives it).
rand() {
	awk -v s="$seed" -v i="$i" -v k="$2" -v n="$1" 'BEGIN { srand(s * 1000003 + i * 16 + k); rand(); printf "%d", rand() * n }'
}

# killgroup PID: SIGKILL the process group PID leads (setsid made it).
killgroup() { kill -KILL -- "-$1" 2>/dev/null || kill -KILL "$1" 2>/dev/null; }

killed=0 spared=0 badexit=0
: >spared.txt
i=0
while [ "$i" -lt "$n" ]; do
	pick=$(rand 100 1)
	if [ "$pick" -lt 85 ]; then
		fx=$(echo $sizes | cut -d' ' -f$(($(rand 4 2) + 1)))
		mode=; [ "$(rand 2 3)" = 1 ] && mode=--pipe
		# A unique argv per injection: $0 of sh -c names it, the output is the fixture's.
		setsid "$CTX" run $mode -- sh -c 'cat "$1"' "inj-$i" "fx/$fx" >/dev/null 2>"out/$i.err" &
		pid=$!
		echo "$i $fx" >>injections.txt
		case $fx in small) max=150 ;; text300k) max=400 ;; text3m) max=900 ;; *) max=1500 ;; esac
	else
		case $(rand 3 4) in
		0) setsid "$CTX" ls >/dev/null 2>&1 & ;;
		1) setsid "$CTX" gc --keep 0 >/dev/null 2>&1 & ;;
		2) setsid "$CTX" compact >/dev/null 2>&1 & ;;
		esac
		pid=$! fx= max=300
	fi
	if [ "$(rand 10 5)" -lt 8 ]; then
		sleep "$(awk -v ms="$(rand "$max" 6)" 'BEGIN { printf "%.3f", ms / 1000 }')"
		killgroup "$pid"
		wait "$pid" 2>/dev/null
		killed=$((killed + 1))
	else
		wait "$pid"
		rc=$?
		if [ -n "$fx" ]; then
			spared=$((spared + 1))
			echo "inj-$i" >>spared.txt
			if [ "$rc" -ne 0 ]; then
				badexit=$((badexit + 1))
				echo "torture: spared injection $i exited $rc: $(head -c 300 "out/$i.err")" >&2
			fi
		fi
	fi
	i=$((i + 1))
done
"$CTX" ls >/dev/null 2>&1 # recover whatever the last kills left

# Phase 2: concurrent runs beside a big capture and a gc/compact loop, with
# default settings (ctx run starts its background compactions again).
concok=0
if [ "$conc" -gt 0 ]; then
	unset CTX_NO_COMPACT
	"$CTX" run --pipe -- seq 1 "$big" >/dev/null 2>&1 &
	bigpid=$!
	(
		while kill -0 "$bigpid" 2>/dev/null; do
			"$CTX" gc --keep 0 >/dev/null 2>&1
			"$CTX" compact >/dev/null 2>&1
			sleep 0.3
		done
	) &
	loop=$!
	# All at once, two seconds in: the big capture is then packing and
	# digesting (where ctx used to hold its read lock for the whole digest).
	sleep 2
	j=0
	while [ "$j" -lt "$conc" ]; do
		("$CTX" run -- sh -c "echo concurrent $j; exit $((j % 7))" >/dev/null 2>"out/c$j.err"; echo $? >"out/c$j.rc") &
		j=$((j + 1))
	done
	wait "$bigpid" || { badexit=$((badexit + 1)); echo "torture: the big capture failed" >&2; }
	wait
	j=0
	while [ "$j" -lt "$conc" ]; do
		rc=$(cat "out/c$j.rc")
		if [ "$rc" -eq $((j % 7)) ]; then
			concok=$((concok + 1))
		else
			badexit=$((badexit + 1))
			echo "torture: concurrent run $j exited $rc, want $((j % 7)): $(head -c 300 "out/c$j.err")" >&2
		fi
		j=$((j + 1))
	done
fi

# Verification.
"$CTX" ls --json -n 0 >ls.json 2>ls.err || { echo "torture: ctx ls failed: $(cat ls.err)" >&2; exit 1; }
# One line per execution record.
tr -d '\n' <ls.json | sed 's/},[[:space:]]*{/}\n{/g' >execs.txt
echo >>execs.txt # the last record ends without a newline: read would skip it
lost=0 unreadable=0 wrong=0 dup=0 listed=0
: >seen.txt
while IFS= read -r rec; do
	h=$(printf '%s' "$rec" | sed -n 's/.*"run": *"\(run:[0-9a-f]*\)".*/\1/p')
	[ -n "$h" ] || continue
	listed=$((listed + 1))
	tag=$(printf '%s' "$rec" | grep -o '"inj-[0-9]*"' | tr -d '"')
	if ! "$CTX" get "$h#stdout" --full --raw >got 2>get.err; then
		if ! grep -q "has no stdout\|is empty" get.err; then
			unreadable=$((unreadable + 1))
			echo "torture: $h ($tag) is listed but unreadable: $(head -c 300 get.err)" >&2
			continue
		fi
		: >got
	fi
	[ -n "$tag" ] || continue
	echo "$tag" >>seen.txt
	fx=$(grep "^${tag#inj-} " injections.txt | cut -d' ' -f2)
	want="fx/$fx"
	# ctx get redacts what looks like a credential (random bytes sometimes
	# do), and only a person at a terminal may see the stored bytes. So the
	# reference is the fixture's first stdout_bytes bytes, stored in a
	# store of its own and read back the same way: equal output means equal
	# bytes, since redaction is a pure function of them (and check
	# --read-data below re-hashes every blob against its id).
	size=$(printf '%s' "$rec" | sed -n 's/.*"stdout_bytes": *\([0-9]*\).*/\1/p')
	size=${size:-0}
	head -c "$size" "$want" >ref.bin
	if ! cmp -s ref.bin got; then
		rh=$(CTX_STORE="$PWD/ref.ctx" "$CTX" ingest --as ref ref.bin 2>/dev/null | grep -o 'run:[0-9a-f]*' | head -n 1)
		: >ref.got
		[ -z "$rh" ] || CTX_STORE="$PWD/ref.ctx" "$CTX" get "$rh#stdout" --full --raw >ref.got 2>/dev/null
		if [ "$size" -gt 0 ] && ! cmp -s ref.got got; then
			wrong=$((wrong + 1))
			echo "torture: $h ($tag) holds bytes its command never printed" >&2
			continue
		fi
	fi
	if printf '%s' "$rec" | grep -q '"status": *"exited"' && [ "$size" -ne "$(wc -c <"$want")" ]; then
		wrong=$((wrong + 1))
		echo "torture: $h ($tag) says the command exited but holds $size of $(wc -c <"$want") bytes" >&2
	fi
done <execs.txt
dup=$(sort seen.txt | uniq -d | wc -l)
while IFS= read -r tag; do
	grep -qx "$tag" seen.txt || { lost=$((lost + 1)); echo "torture: $tag finished but is not listed" >&2; }
done <spared.txt
if "$CTX" check --read-data >check.txt 2>&1; then check=ok; else check=damaged; cat check.txt >&2; fi

echo "torture: injections $n killed $killed spared $spared concurrent $concok/$conc listed $listed" \
	"lost $lost unreadable $unreadable wrong $wrong duplicates $dup bad-exit $badexit check $check"
[ "$lost$unreadable$wrong$dup$badexit" = 00000 ] && [ $check = ok ]
