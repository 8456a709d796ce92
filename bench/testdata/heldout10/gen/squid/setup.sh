#!/bin/bash
# Squid's directories, a hosts file that names the loopback origin, a
# password file of made-up users for basic_ncsa_auth, an empty log; the
# disk cache is made by squid -z.
D=/work/tmp-ho10/squid; G=$(dirname "$(readlink -f "$0")")
rm -rf $D; mkdir -p $D/cache; cd $D
printf '127.0.0.1 origin.ho10.test www.ho10.test static.ho10.test api.ho10.test blocked.ho10.test\n' > hosts
: > passwd; for u in alice bob carol; do printf '%s:%s\n' $u "$(openssl passwd -apr1 pw-$u)" >> passwd; done
chown -R proxy:proxy $D
squid -N -z -f $G/squid.conf 2>/dev/null; : > $D/cache.log; chown proxy:proxy $D/cache.log
