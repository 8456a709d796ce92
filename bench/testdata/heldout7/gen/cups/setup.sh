#!/bin/bash
# Make a private ServerRoot (with this directory's cupsd.conf and
# cups-files.conf) and state, spool, cache and temp directories.
D=/work/tmp-ho7/cups; mkdir -p $D/etc/ppd $D/spool/tmp $D/cache $D/state/certs $D/log $D/out
chmod 0710 $D/spool; chown root:lp $D/spool $D/spool/tmp $D/cache $D/state $D/out; chmod 1770 $D/spool/tmp; chmod 0775 $D/out
G=$(dirname "$(readlink -f "$0")"); mkdir -p $D/run; cp $G/cupsd.conf $G/cups-files.conf $D/etc/; cp $G/cups-drive.py $G/run.sh $D/
