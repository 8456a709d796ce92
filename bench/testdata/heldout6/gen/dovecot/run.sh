#!/bin/bash
# Start dovecot in the foreground, run the driver, stop it.
D=/work/tmp-ho6/dovecot; cd $D; rm -f dovecot.log; rm -rf mail/*
dovecot -F -c $D/dovecot.conf & sleep 2
python3 ./dovecot-drive.py $1 $2
sleep 1; doveadm -c $D/dovecot.conf stop; wait
wc -l dovecot.log
