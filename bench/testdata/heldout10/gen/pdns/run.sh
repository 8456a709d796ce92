#!/bin/bash
# Start pdns_server (no daemon, no guardian, in the foreground of this
# script's job, its stdout and stderr into the log; it changes to the pdns
# user), run the driver, stop it (SIGTERM).
D=/work/tmp-ho10/pdns; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
pdns_server --config-dir=$G > $D/pdns.log 2>&1 & P=$!; sleep 3
python3 $G/pdns-drive.py $1 $2 $G
sleep 2; kill -TERM $P; wait $P
echo done
wc -l $D/pdns.log
