#!/bin/bash
# Start Postfix's master in the foreground of this script's job (postfix
# start-fg), run the driver, let the queue settle, stop it (postfix stop).
D=/work/tmp-ho10/postfix; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
postfix start-fg & P=$!; sleep 4
python3 $G/postfix-drive.py $1 $2
sleep 8; postfix stop; wait $P
wc -l $D/postfix.log
