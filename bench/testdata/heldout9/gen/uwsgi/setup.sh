#!/bin/bash
# A scratch directory with the application and an empty log.
D=/work/tmp-ho9/uwsgi; G=$(dirname "$(readlink -f "$0")"); rm -rf $D; mkdir -p $D; cp $G/app.py $D/; chown nobody:nogroup $D
