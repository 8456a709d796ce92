#!/bin/bash
# Start knotd in the foreground, run the driver, stop it (knotc stop).
D=/work/tmp-ho7/knot; cd $D; rm -rf knot.log db run; mkdir -p db run; cp zones/corp.test.zone.good zones/corp.test.zone
rm -f zones/example.test.zone.* zones/sec.test.zone
knotd -c $D/knot.conf & P=$!; sleep 3
python3 ./knot-drive.py $1 $2
sleep 1; knotc -c $D/knot.conf stop > /dev/null; wait $P
wc -l knot.log
