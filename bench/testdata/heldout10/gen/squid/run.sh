#!/bin/bash
# Start squid (-N: no daemon, in the foreground of this script's job; it
# changes to the proxy user), run the driver with its origin, stop squid
# (SIGTERM; shutdown_lifetime 2 seconds).
D=/work/tmp-ho10/squid; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
squid -N -f $G/squid.conf > $D/stdout.txt 2>&1 & P=$!; sleep 4
python3 $G/squid-drive.py $1 $2 $P
sleep 2; kill -TERM $P; wait $P
echo done
wc -l $D/cache.log
