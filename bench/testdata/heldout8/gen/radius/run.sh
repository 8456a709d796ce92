#!/bin/bash
# Start FreeRADIUS in the foreground logging to a file, run the driver, stop it (SIGTERM).
D=/work/tmp-ho8/radius; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
freeradius -f -d $D/raddb -l $D/log/radius.log & P=$!; sleep 2
python3 $G/radius-drive.py $1 $2 $P
sleep 6; kill -TERM $P; wait $P
wc -l $D/log/radius.log
