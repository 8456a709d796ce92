#!/bin/bash
# Start uwsgi (master in the foreground of this script's job, workers as
# nobody), run the driver, stop it (SIGINT, uWSGI's shutdown signal).
D=/work/tmp-ho9/uwsgi; G=$(dirname "$(readlink -f "$0")"); bash $G/setup.sh; cd $D
uwsgi --ini $G/uwsgi.ini & P=$!; sleep 3
python3 $G/uwsgi-drive.py $1 $2 $P
sleep 2; kill -INT $P; wait $P
wc -l $D/uwsgi.log
