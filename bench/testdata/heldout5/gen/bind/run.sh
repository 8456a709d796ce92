#!/bin/bash
# Start named in the foreground, run the driver, stop it with rndc.
D=/tmp/i12/ho5/bind; cd $D; rm -f named.log work/*.jnl; cp zones/example.test.db.orig zones/example.test.db
named -f -c $D/named.conf & sleep 2
./bind-drive.sh $1 $2
rndc -s 127.0.0.1 -p 9953 -k $D/rndc.key stop; sleep 2
wc -l named.log
