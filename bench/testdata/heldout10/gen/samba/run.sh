#!/bin/bash
# Start smbd in the foreground of this script's job, in its own session
# (setsid: a child smbd may signal its process group), run the driver, stop
# it (SIGTERM) and the samba-dcerpcd it started on demand (by its pid file).
D=/work/tmp-ho10/samba; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
setsid smbd -F --no-process-group -s $G/smb.conf < /dev/null > $D/stdout.txt 2>&1 & P=$!; sleep 4
python3 $G/samba-drive.py $1 $2 $P
sleep 3; kill -TERM $P; wait $P
sleep 2; R=$(cat $D/run/samba-dcerpcd.pid 2>/dev/null); [ -n "$R" ] && kill -TERM $R 2>/dev/null
echo done
wc -l $D/smbd.log
