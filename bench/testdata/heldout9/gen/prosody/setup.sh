#!/bin/bash
# Fresh data, run and certificate directories for the heldout9 Prosody (a
# test key and self-signed certificate made here at run time; none is
# committed), and the accounts the driver logs in with.
D=/work/tmp-ho9/prosody; G=$(dirname "$(readlink -f "$0")")
rm -rf $D/data $D/run $D/certs $D/log; mkdir -p $D/data $D/run $D/certs $D/log; cd $D
openssl req -x509 -newkey rsa:2048 -nodes -keyout certs/ho9.test.key -out certs/ho9.test.crt -days 30 -subj /CN=ho9.test -addext subjectAltName=DNS:ho9.test,DNS:rooms.ho9.test 2>/dev/null
chown -R prosody:prosody $D/data $D/run $D/certs $D/log; chmod 640 certs/ho9.test.key
for u in alice bob carol dave admin; do prosodyctl --config $G/prosody.cfg.lua register $u ho9.test "pw-$u" ; done
chown -R prosody:prosody $D/data; rm -f $D/log/prosody.log
