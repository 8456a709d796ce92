#!/bin/bash
# Fresh database, run directory and a test CA with a server certificate
# (test keys made here at run time; none is committed).
D=/work/tmp-ho8/slapd; mkdir -p $D/db; rm -rf $D/db/* $D/run; mkdir -p $D/run; cd $D
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 -subj /CN=ho8-ldap-ca 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 2>/dev/null
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 30 2>/dev/null
chmod 644 server.key
