#!/bin/bash
# Start mpd in the foreground (it changes to the mpd user), build its
# database, run the driver, stop it (SIGTERM).
D=/work/tmp-ho9/mpd; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
mpd --no-daemon $G/mpd.conf > $D/stdout.txt 2>&1 & P=$!; sleep 3
python3 $G/mpd-drive.py $1 $2 $P
sleep 2; kill -TERM $P; wait $P
wc -l $D/log/mpd.log
