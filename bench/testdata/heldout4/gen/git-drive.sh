#!/bin/bash
# Seeded git session in a scratch repository with GIT_TRACE and
# GIT_TRACE_SETUP written to git/trace.log: commits, branches, merges,
# tags, stash, log/diff/show, a bare clone and pushes, gc, unknown commands.
RANDOM=77
export GIT_TRACE=/tmp/i12/ho4/git/trace.log GIT_TRACE_SETUP=/tmp/i12/ho4/git/trace.log
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.com GIT_PAGER=cat
R=/tmp/i12/ho4/git/repo; rm -rf $R /tmp/i12/ho4/git/bare.git; mkdir -p $R; cd $R
git init -q -b main .
B=(main feature fix docs)
for i in $(seq 1 150); do
  f=src/m$((RANDOM % 15)).txt; mkdir -p src
  case $((RANDOM % 12)) in
    0|1|2) echo "line $RANDOM" >> $f; git add $f; git commit -q -m "change $i" ;;
    3) git status --short >/dev/null ;;
    4) git log --oneline -n $((RANDOM % 5 + 1)) >/dev/null ;;
    5) b=${B[$((RANDOM%4))]}; git checkout -q $b 2>/dev/null || git checkout -q -b $b ;;
    6) git diff HEAD~1 --stat >/dev/null 2>&1 ;;
    7) echo "wip $RANDOM" >> $f; git stash -q 2>/dev/null; git stash pop -q 2>/dev/null; git add -A; git commit -q -m "wip $i" ;;
    8) git tag v0.$i 2>/dev/null; git show --stat HEAD >/dev/null ;;
    9) git merge -q --no-edit ${B[$((RANDOM%4))]} >/dev/null 2>&1 || git merge --abort 2>/dev/null ;;
    10) [ -d ../bare.git ] || git clone -q --bare . ../bare.git; git push -q ../bare.git HEAD 2>/dev/null ;;
    11) git nosuchcmd$((RANDOM % 3)) 2>/dev/null; git rev-parse --abbrev-ref HEAD >/dev/null ;;
  esac
done
git gc -q
