#!/bin/bash
# Make the AuthUserFile (test users only) and the users' homes.
D=/work/tmp-ho6/proftpd; mkdir -p $D/ftp/{alice/incoming,bob/incoming,pub} $D/run; cd $D
python3 -c "
import crypt
for u, p, uid, h in (('alice', 'wonder', 2001, 'alice'), ('bob', 'builder', 2002, 'bob'), ('guest', 'guest', 2003, 'pub')):
    print('%s:%s:%d:%d::$D/ftp/%s:/bin/false' % (u, crypt.crypt(p, crypt.mksalt(crypt.METHOD_SHA512)), uid, uid, h))
" > ftpd.passwd
chmod 600 ftpd.passwd; chown -R 2001 ftp/alice; chown -R 2002 ftp/bob
echo readme > ftp/pub/README; head -c 20000 /dev/urandom > ftp/pub/data.bin
