#!/bin/bash
# Start fail2ban-server in the foreground with conf/ (logtarget, socket, pid
# and database in the scratch directory), run the driver, stop it.
D=/work/tmp-ho7/fail2ban; cd $D; rm -rf fail2ban.log logs run; mkdir -p logs run; touch logs/auth.log logs/mail.log fail2ban.log
fail2ban-server -f -x -c $D/conf > run/server.out 2>&1 & P=$!; sleep 4
python3 ./fail2ban-drive.py $1 $2
sleep 8; fail2ban-client -c $D/conf stop > /dev/null; wait $P
wc -l fail2ban.log
