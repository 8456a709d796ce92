#!/bin/bash
# Start slapd in the foreground with stats logging to stderr, run the driver, stop it (SIGTERM).
D=/work/tmp-ho8/slapd; cd $D; bash ./setup.sh; rm -f slapd.log
slapd -d stats,stats2 -h "ldap://127.0.0.1:3890/ ldaps://127.0.0.1:6360/ ldapi://%2Fwork%2Ftmp-ho8%2Fslapd%2Frun%2Fldapi" -f $D/slapd.conf 2> slapd.log & P=$!; sleep 2
python3 ./slapd-drive.py $1 $2
sleep 1; kill -TERM $P; wait $P
wc -l slapd.log
