#!/bin/bash
# Start icecast2 in the foreground, run the driver, stop it (SIGTERM).
D=/work/tmp-ho8/icecast; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
icecast2 -c $G/icecast.xml > $D/stdout.txt 2>&1 & P=$!; sleep 2
python3 $G/icecast-drive.py $1 $2 $P
sleep 2; kill -TERM $P; wait $P
wc -l $D/log/error.log
