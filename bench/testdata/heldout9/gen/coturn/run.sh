#!/bin/bash
# Start turnserver (it changes to the turnserver user) and an echo peer on
# 127.0.0.1:3480, run the driver, stop both (SIGTERM).
D=/work/tmp-ho9/coturn; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
turnutils_peer -L 127.0.0.1 -p 3480 > /dev/null 2>&1 & Q=$!
turnserver -c $G/turnserver.conf > $D/stdout.txt 2>&1 & P=$!; sleep 3
python3 $G/coturn-drive.py $1 $2 $P
sleep 3; kill -TERM $P; wait $P; kill -TERM $Q; wait $Q
wc -l $D/turn.log
