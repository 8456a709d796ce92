#!/bin/sh
# gen.sh regenerates the real-run git fixtures in this directory (layout:
# ../../../gotest/testdata/realrun/README.md): git 2.39 in a scratch
# repository with fixed authors and dates, so reruns give the same hashes.
# Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/git
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME=$work GIT_PAGER=cat
. "$here/../../../internal/realrun.sh"
commit() {
	GIT_AUTHOR_DATE="2026-11-0$1T10:00:00Z" GIT_COMMITTER_DATE="2026-11-0$1T10:00:00Z" git commit -q -am "$2"
}
git init -q -b main repo
cd repo
root=$(go env GOROOT)
cp "$root/src/errors/wrap.go" wrap.go
cp "$root/src/errors/join.go" join.go
cp "$root/src/io/pipe.go" pipe.go
git add .
commit 1 "import three files"
sed -i 's/^func Unwrap(err error) error {/func Unwrap(err error) error { \/\/ unwrap once/' wrap.go
sed -i 's/errors.New("io: read\/write on closed pipe")/errors.New("io: read or write on a closed pipe")/' pipe.go
commit 2 "pipe: clearer message; wrap: comment"
sed -i '1,4d' join.go
printf '\n// Version is the package version.\nconst Version = "1.2"\n' >> wrap.go
commit 3 "join: drop the header; wrap: add Version"
sed -i 's/return nil/return nil \/\/ nothing to do/' wrap.go join.go pipe.go
rec log-p git log -p
rec log-stat git log --stat
rec diff git diff
rec diff-stat git diff --stat
rec show git show HEAD~1
rec log-oneline git log --oneline
