#!/bin/bash
# Start prosody in the foreground as the prosody user (it refuses root),
# run the driver, stop it (SIGTERM).
D=/work/tmp-ho9/prosody; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
runuser -u prosody -- prosody --config $G/prosody.cfg.lua -F > $D/stdout.txt 2>&1 & sleep 3
P=$(pgrep -u prosody -f "prosody --config $G/prosody.cfg.lua")
python3 $G/prosody-drive.py $1 $2 $P
sleep 2; kill -TERM $P; wait
wc -l $D/log/prosody.log
