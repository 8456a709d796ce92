#!/bin/bash
# Make the zone files (test names only) and the scratch directories.
D=/work/tmp-ho7/knot; mkdir -p $D/zones $D/run $D/db; cd $D/zones
for z in example corp open; do
cat > $z.test.zone <<Z
\$ORIGIN $z.test.
\$TTL 300
@ SOA ns1 hostmaster 1 3600 600 86400 300
@ NS ns1
ns1 A 127.0.0.1
www A 192.0.2.10
mail A 192.0.2.20
@ MX 10 mail
txt TXT "hello"
Z
done
cp corp.test.zone corp.test.zone.good
cat > broken.test.zone <<Z
\$ORIGIN broken.test.
\$TTL 300
@ SOA ns1 hostmaster 1 3600 600 86400 300
@ NS ns1
ns1 A 127.0.0.300
www CNAME
Z
