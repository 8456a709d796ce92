#!/bin/sh
# gen-gh.sh records real gh 2.23 (Debian's gh package) listing issues and pull
# requests as a pipe sees them (tab-separated rows, one-line JSON). gh needs
# GitHub's API, which is not reachable here: gh-api/serve.py answers on
# loopback with cli/cli's own recorded API responses (README.md names them),
# reached as gh reaches the host github.localhost (http://api.github.localhost
# through HTTP_PROXY). Run it from this directory: sh gen-gh.sh
set -u
here=$(pwd)
. "$here/../../../internal/realrun.sh"
port=47231
python3 gh-api/serve.py $port &
srv=$!
trap 'kill $srv' EXIT
sleep 1
export GH_HOST=github.localhost GH_TOKEN=fixture GH_NO_UPDATE_NOTIFIER=1 GH_CONFIG_DIR=/tmp/ctx-realrun/gh NO_COLOR=1
export HTTP_PROXY=http://127.0.0.1:$port
rec gh-issue-list gh issue list --repo OWNER/REPO
rec gh-issue-list-json gh issue list --repo OWNER/REPO --json number,title,assignees,updatedAt,url
rec gh-pr-list gh pr list --repo monalisa/hello
rec gh-pr-list-json gh pr list --repo monalisa/hello --json number,title,state,isDraft,headRefName,url
# The same on a terminal (script(1) gives gh a pty, as ctx run does by
# default): gh prints aligned columns and colour.
rec gh-pr-list-pty "script -qec 'gh pr list --repo monalisa/hello' /dev/null"
rec gh-issue-list-pty "script -qec 'gh issue list --repo OWNER/REPO' /dev/null"
# gh with no token for github.com: the error a new machine prints (nothing is
# contacted).
unset GH_TOKEN GH_HOST HTTP_PROXY
rec gh-no-auth gh issue list --repo OWNER/REPO --json number
