#!/bin/bash
# Start the backends and haproxy, run the driver, stop haproxy softly.
D=/tmp/i12/ho5/haproxy; cd $D; rm -f haproxy.log
for p in 9101 9102 9103; do python3 -m http.server --bind 127.0.0.1 --directory $D/www $p >/dev/null 2>&1 & echo $! > $D/app$p.pid; done
python3 slowsrv.py 9104 3 & echo $! > slow.pid
python3 echosrv.py 9105 & echo $! > echo9105.pid
python3 echosrv.py 9106 & echo $! > echo9106.pid
sleep 1
haproxy -db -f haproxy.cfg > haproxy.log 2> haproxy.err & echo $! > haproxy.pid
sleep 2
./haproxy-drive.sh
sleep 1; kill -USR1 $(cat haproxy.pid); sleep 3
for f in app9101 app9102 app9103 slow echo9105 echo9106; do [ -f $f.pid ] && kill $(cat $f.pid) 2>/dev/null; done
wc -l haproxy.log
