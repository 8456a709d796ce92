#!/bin/bash
# A test key and self-signed certificate for coturn's TLS and DTLS
# listeners, made at run time (none is committed), and an empty log.
D=/work/tmp-ho9/coturn; mkdir -p $D; cd $D; rm -f turn.log turn.key turn.crt
openssl req -x509 -newkey rsa:2048 -nodes -keyout turn.key -out turn.crt -days 30 -subj /CN=127.0.0.1 2>/dev/null
chown turnserver:turnserver turn.key turn.crt; chown turnserver:turnserver $D
