#!/bin/bash
# Start unbound in the foreground on 127.0.0.1:5354, run the driver, stop it.
D=/work/tmp-ho6/unbound; cd $D; rm -f unbound.log; cp corp.test.zone.good corp.test.zone
unbound -d -c $D/unbound.conf & sleep 2
./unbound-drive.sh $1 $2
unbound-control -c $D/unbound.conf stop; wait
wc -l unbound.log
