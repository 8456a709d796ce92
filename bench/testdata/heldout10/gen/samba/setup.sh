#!/bin/bash
# Samba's directories, the shares' files, and made-up SMB passwords for
# three existing system accounts (backup, proxy, list) in a tdbsam made
# at run time; an empty log.
D=/work/tmp-ho10/samba; G=$(dirname "$(readlink -f "$0")")
rm -rf $D; mkdir -p $D/{private,state,cache,lock,run,ncalrpc,bind-dns,public,private-share,archive}; cd $D
chmod 700 $D/private; chown nobody:nogroup $D/public; chmod 1777 $D/private-share
for f in report.txt notes.md data.csv; do head -c $((RANDOM % 4000 + 100)) /dev/urandom | base64 > archive/$f; done
mkdir archive/2025; echo old > archive/2025/summary.txt
echo secret > archive/locked.txt; chmod 000 archive/locked.txt
for u in backup proxy list; do printf 'pw-%s\npw-%s\n' $u $u | smbpasswd -c $G/smb.conf -s -a $u > /dev/null; done
: > $D/smbd.log
