#!/bin/bash
# A test CA, a server certificate, client certificates (one revoked, one
# expired, one from a second CA that the server does not trust), a
# tls-crypt key and a wrong one, all made at run time (none is committed);
# the client-config directory and the user list the verify script reads.
D=/work/tmp-ho10/openvpn; G=$(dirname "$(readlink -f "$0")")
rm -rf $D; mkdir -p $D/pki $D/ccd; cd $D/pki
ca() { openssl req -x509 -newkey rsa:2048 -nodes -keyout $1.key -out $1.crt -days 30 -subj "/CN=$2" 2>/dev/null; }
cert() { # name CN ca days [startdate-offset]
  openssl req -newkey rsa:2048 -nodes -keyout $1.key -out $1.csr -subj "/CN=$2" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n' "$5" > $1.ext
  openssl x509 -req -in $1.csr -CA $3.crt -CAkey $3.key -CAcreateserial -out $1.crt -days $4 -extfile $1.ext 2>/dev/null
}
ca ca "ho10 test CA"; ca otherca "another CA"
cert server server.ho10.test ca 30 serverAuth
for c in alice bob carol dave erin frank; do cert $c $c ca 30 clientAuth; done
cert mallory mallory otherca 30 clientAuth
cert mallet mallet ca 30 serverAuth          # a server certificate used as a client's
# revoke carol: a minimal CA database for openssl ca
mkdir -p db; : > db/index.txt; echo 1000 > db/crlnumber
cat > ca.cnf <<CNF
[ca]
default_ca=c
[c]
database=$D/pki/db/index.txt
crlnumber=$D/pki/db/crlnumber
certificate=$D/pki/ca.crt
private_key=$D/pki/ca.key
default_md=sha256
default_crl_days=30
CNF
openssl ca -config ca.cnf -revoke carol.crt 2>/dev/null
openssl ca -config ca.cnf -gencrl -out crl.pem 2>/dev/null
openvpn --genkey tls-crypt tc.key; openvpn --genkey tls-crypt wrong-tc.key
echo disable > $D/ccd/frank
printf 'ifconfig-push 10.10.0.50 255.255.255.0\n' > $D/ccd/bob
printf 'alice pw-alice\nbob pw-bob\ncarol pw-carol\ndave pw-dave\nerin pw-erin\nfrank pw-frank\n' > $D/users.txt
cp $G/verify.sh $D/verify.sh; chmod 755 $D/verify.sh
chmod 644 $D/pki/*
