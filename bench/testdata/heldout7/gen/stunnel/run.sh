#!/bin/bash
# Start stunnel in the foreground, run the driver, stop it (SIGTERM).
D=/work/tmp-ho7/stunnel; cd $D; rm -f stunnel.log
stunnel4 $D/stunnel.conf & P=$!; sleep 2
python3 ./stunnel-drive.py $1 $2 $D/run/stunnel.pid
sleep 1; kill -TERM $P; wait $P
wc -l stunnel.log
