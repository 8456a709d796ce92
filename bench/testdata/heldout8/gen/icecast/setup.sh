#!/bin/bash
# Log directory owned by the user icecast changes to, a file to stream, a
# file to serve, and an empty htpasswd for the authenticated mount.
D=/work/tmp-ho8/icecast; rm -rf $D/log; mkdir -p $D/log; chown nobody:nogroup $D/log; cd $D
head -c 400000 /dev/urandom > noise.bin; : > members.htpasswd; chown nobody:nogroup members.htpasswd
