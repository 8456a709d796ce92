#!/bin/bash
# Make a test CA, a server certificate and a client certificate (test keys
# only, made here; none is committed).
D=/work/tmp-ho7/stunnel; mkdir -p $D/run; cd $D
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 -subj /CN=ho7-ca 2>/dev/null
for n in server client; do
  openssl req -newkey rsa:2048 -nodes -keyout $n.key -out $n.csr -subj /CN=$n.test 2>/dev/null
  openssl x509 -req -in $n.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out $n.pem -days 30 2>/dev/null
done
openssl req -x509 -newkey rsa:2048 -nodes -keyout rogue.key -out rogue.pem -days 30 -subj /CN=rogue 2>/dev/null
