#!/bin/bash
# Start the exim daemon (queue run every 30s), run the driver, stop it.
D=/tmp/i12/ho5/exim; cd $D; rm -f log/*log
exim -C $D/exim.conf -bd -q30s -oP $D/exim.pid & sleep 2
./exim-drive.sh $1 $2
sleep 3; kill $(cat $D/exim.pid); sleep 1
wc -l log/mainlog
