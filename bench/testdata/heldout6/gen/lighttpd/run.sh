#!/bin/bash
# Start lighttpd in the foreground, run the driver, stop it (SIGINT).
D=/work/tmp-ho6/lighttpd; cd $D; rm -f error.log access.log
lighttpd -D -f $D/lighttpd.conf & P=$!; sleep 1
./lighttpd-drive.sh $1 $2
sleep 1; kill -INT $P; wait
wc -l error.log
