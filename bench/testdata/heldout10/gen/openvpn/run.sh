#!/bin/bash
# Start the OpenVPN server (in the foreground of this script's job), run
# the driver, stop it (SIGTERM).
D=/work/tmp-ho10/openvpn; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
openvpn --config $G/server.conf & P=$!; sleep 3
python3 $G/openvpn-drive.py $1 $2 $P
sleep 3; kill -TERM $P; wait $P
wc -l $D/openvpn.log
