#!/bin/sh
# auth-user-pass-verify via-file: the file holds the user name and password.
u=$(sed -n 1p "$1"); p=$(sed -n 2p "$1")
grep -qx "$u $p" /work/tmp-ho10/openvpn/users.txt
