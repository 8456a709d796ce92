#!/bin/bash
# Make the configuration directory: a copy of the installed /etc/fail2ban
# without jail.d/ (Debian's enables sshd on the systemd journal), plus this
# set's fail2ban.local (log target, socket, pid file and database in the
# scratch directory) and jail.local (the four jails, the dummy action).
D=/work/tmp-ho7/fail2ban; G=$(dirname "$(readlink -f "$0")")
mkdir -p $D; rm -rf $D/conf; cp -r /etc/fail2ban $D/conf; rm -f $D/conf/jail.d/*
cp $G/fail2ban.local $G/jail.local $D/conf/; cp $G/fail2ban-drive.py $G/run.sh $D/
