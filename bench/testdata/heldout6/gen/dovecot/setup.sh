#!/bin/bash
# Put the passwd-file (test users only) and the mail directory in place.
D=/work/tmp-ho6/dovecot; mkdir -p $D/run $D/mail; cp "$(dirname "$0")"/users $D/users
chown nobody:nogroup $D/mail; chmod 755 /work/tmp-ho6 $D
