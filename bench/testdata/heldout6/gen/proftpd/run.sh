#!/bin/bash
# Start proftpd (standalone daemon, SystemLog to a file), run the driver,
# stop it (SIGTERM to the pid in PidFile).
D=/work/tmp-ho6/proftpd; cd $D; rm -f proftpd.log xferlog
proftpd -c $D/proftpd.conf; sleep 2
python3 ./proftpd-drive.py $1 $2 $D/run/proftpd.pid
sleep 1; kill -TERM $(cat $D/run/proftpd.pid); sleep 2
wc -l proftpd.log
