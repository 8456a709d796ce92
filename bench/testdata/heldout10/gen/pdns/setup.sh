#!/bin/bash
# The bind backend's named.conf and zone files (two made-up zones and one
# broken file), writable by pdns for its socket; an empty log.
D=/work/tmp-ho10/pdns; G=$(dirname "$(readlink -f "$0")")
rm -rf $D; mkdir -p $D; cd $D
cat > named.conf <<CONF
zone "ho10.test" { type master; file "$D/ho10.test.zone"; };
zone "lab.ho10.test" { type master; file "$D/lab.zone"; };
zone "broken.test" { type master; file "$D/broken.zone"; };
CONF
cat > ho10.test.zone <<'Z'
$TTL 300
@     IN SOA ns1.ho10.test. hostmaster.ho10.test. 2026120201 3600 600 86400 300
      IN NS  ns1.ho10.test.
      IN MX  10 mx.ho10.test.
      IN TXT "v=spf1 mx -all"
ns1   IN A   127.0.0.1
mx    IN A   127.0.0.1
www   IN A   127.0.0.10
www   IN AAAA ::1
api   IN CNAME www
ftp   IN A   127.0.0.11
*.dyn IN A   127.0.0.12
_sip._udp IN SRV 10 5 5060 www.ho10.test.
Z
cat > lab.zone <<'Z'
$TTL 60
@     IN SOA ns1.ho10.test. hostmaster.ho10.test. 7 3600 600 86400 60
      IN NS  ns1.ho10.test.
host1 IN A   127.0.1.1
host2 IN A   127.0.1.2
Z
printf '$TTL 60\n@ IN SOA ns1 hostmaster ( 1 3600\nthis is not a zone\n' > broken.zone
chown -R pdns:pdns $D; : > $D/pdns.log
