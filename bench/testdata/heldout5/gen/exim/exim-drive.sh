#!/bin/bash
# Seeded SMTP sessions against the exim daemon on 127.0.0.1:2525 (swaks and
# raw nc), plus local submissions and forced queue runs: deliveries to local
# mailboxes and an alias list, unknown users, relaying refused, a blocked
# sender domain, a forbidden body signature, large messages, a mailbox that is
# a directory, a failing pipe alias, remote domains whose smarthost port is
# closed, protocol errors, silent and idle connections. $1 = steps, $2 = seed.
RANDOM=$2
X="exim -C /tmp/i12/ho5/exim/exim.conf"
S="swaks -s 127.0.0.1 -p 2525 --timeout 8 --silent 2"
L=(alice bob carol dave sales)
F=(news shop billing team jo mike)
for i in $(seq 1 $1); do
  from=${F[$((RANDOM % 6))]}$((RANDOM % 20))@sender.test
  case $((RANDOM % 16)) in
    0|1|2|3) $S -f $from -t ${L[$((RANDOM % 5))]}@example.test --h-Subject "report $i" >/dev/null 2>&1 ;;
    4) $S -f $from -t nobody$((RANDOM % 9))@example.test >/dev/null 2>&1 ;;
    5) r=(x@other.test y@gmail.test z@corp.lan); $S -f $from -t ${r[$((RANDOM % 3))]} >/dev/null 2>&1 ;;
    6) s=(spam.test junk.test); $S -f promo$RANDOM@${s[$((RANDOM % 2))]} -t alice@example.test >/dev/null 2>&1 ;;
    7) $S -f $from -t bob@example.test --body "hello VIRUS-TEST-SIG $RANDOM" >/dev/null 2>&1 ;;
    8) $S -f $from -t carol@example.test --body "$(head -c $((9000 + RANDOM % 9000)) /dev/zero | tr '\0' x | fold -w 70)" >/dev/null 2>&1 ;;
    9) t=(full oops ext relay); $S -f $from -t ${t[$((RANDOM % 4))]}@example.test >/dev/null 2>&1 ;;
    10) printf 'EHLO c%d.test\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<alice@example.test>\r\nDATA\r\n' $RANDOM | nc -q 2 127.0.0.1 2525 >/dev/null 2>&1 ;;
    11) c=("HELO" "EHLO" "MAIL FROM:bad address" "RCPT TO:<alice@example.test>" "VRFY alice" "XYZZY $RANDOM"); (sleep 0.3; printf 'EHLO c.test\r\n%s\r\n%s\r\nQUIT\r\n' "${c[$((RANDOM % 6))]}" "${c[$((RANDOM % 6))]}") | nc -q 2 127.0.0.1 2525 >/dev/null 2>&1 ;;
    12) (sleep 0.3; printf 'EHLO quiet%d.test\r\nQUIT\r\n' $RANDOM) | nc -q 1 127.0.0.1 2525 >/dev/null 2>&1 ;;
    13) (sleep 0.3; printf 'EHLO idle.test\r\n'; sleep 4) | nc -q 1 127.0.0.1 2525 >/dev/null 2>&1 & ;;
    14) printf 'Subject: cron %d\n\nlocal job output\n' $RANDOM | $X -odi ${L[$((RANDOM % 5))]}@example.test 2>/dev/null ;;
    15) if ((RANDOM % 3)); then $X -qff 2>/dev/null; else for m in $($X -bpr 2>/dev/null | awk '/^ *[0-9]+[smhd] / {print $3}' | head -2); do $X -Mrm $m >/dev/null 2>&1; done; fi ;;
  esac
done
wait
