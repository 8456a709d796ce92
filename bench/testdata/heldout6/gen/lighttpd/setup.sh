#!/bin/bash
# Make the document root and the htpasswd file lighttpd.conf names (test
# users only).
D=/work/tmp-ho6/lighttpd; mkdir -p $D/www/{files,private,cgi-bin,dir,admin}; cd $D
printf '<h1>hi</h1>\n' > www/index.html
for f in a b c report notes; do head -c $((RANDOM % 3000 + 100)) /dev/zero | tr '\0' x > www/files/$f.txt; done
echo secret > www/private/s.txt; echo '{}' > www/files/x.json; cp www/files/a.txt www/files/a.bak
echo ok > www/admin/index.html; touch www/dir/one www/dir/two
cp "$(dirname "$0")"/cgi-bin/* www/cgi-bin/; chmod +x www/cgi-bin/*
printf 'alice:%s\nbob:%s\n' "$(openssl passwd -apr1 wonder)" "$(openssl passwd -apr1 builder)" > htpasswd
