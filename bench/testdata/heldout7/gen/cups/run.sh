#!/bin/bash
# Start cupsd in the foreground on a private ServerRoot, run the driver, stop it (SIGTERM).
D=/work/tmp-ho7/cups; cd $D; rm -rf log/* spool/c* spool/d* out/* etc/printers.conf etc/classes.conf etc/ppd/* state/job.cache cache/*
cupsd -f -c $D/etc/cupsd.conf -s $D/etc/cups-files.conf & P=$!; sleep 2
python3 ./cups-drive.py $1 $2 $P
kill -TERM $P; wait $P
wc -l log/error_log
