#!/bin/bash
# Four server lifetimes written to one error log: a clean start and shutdown,
# a start ended by SIGKILL (crash recovery on the next start), a start that
# fails on an unknown option, and a last clean run.
D=/tmp/i12/ho5/mariadb; cd $D; rm -f error.log
up() { mariadbd --defaults-file=$D/my.cnf "$@" & echo $! > $D/srv.pid; for t in $(seq 1 30); do [ -S $D/run/mysqld.sock ] && mysql -S $D/run/mysqld.sock -uroot -e "SELECT 1" >/dev/null 2>&1 && return; sleep 0.5; done; }
down() { mysql -S $D/run/mysqld.sock -uroot -e "SHUTDOWN"; while kill -0 $(cat $D/srv.pid) 2>/dev/null; do sleep 0.3; done; }
up; ./mariadb-drive.sh 430 11; down
up; ./mariadb-drive.sh 380 22; kill -9 $(cat $D/srv.pid); sleep 1; rm -f $D/run/mysqld.sock
mariadbd --defaults-file=$D/my.cnf --innodb-no-such-option=1; sleep 1
up; ./mariadb-drive.sh 430 33; down
wc -l error.log
