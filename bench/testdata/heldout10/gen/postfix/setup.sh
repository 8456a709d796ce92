#!/bin/bash
# Postfix's configuration (main.cf into /etc/postfix; the rest here),
# the access tables and checks, a test key and self-signed certificate for
# STARTTLS made at run time (none is committed), mailbox files writable by
# nobody, an empty queue and an empty log.
D=/work/tmp-ho10/postfix; G=$(dirname "$(readlink -f "$0")")
rm -rf $D; mkdir -p $D/mail; chown nobody:nogroup $D/mail; cd $D
cp $G/main.cf /etc/postfix/main.cf; cp $G/aliases $D/aliases; postalias $D/aliases
printf 'spammer@junk.test REJECT no mail from you\njunk.test REJECT\nbounce@ho10.test OK\nheld@ho10.test HOLD\nwarn.test WARN sender under watch\n' > sender_access
printf '127.0.0.9 REJECT\n' > client_access
postmap sender_access client_access
printf '/^Subject:.*lottery/ REJECT no lotteries\n/^Subject:.*urgent/ WARN urgent subject\n/^X-Mailer: spamtool/ DISCARD\n/^Subject:.*hold me/ HOLD\n' > header_checks
printf '/wire the money/ REJECT body rejected\n/unsubscribe here/ WARN\n' > body_checks
openssl req -x509 -newkey rsa:2048 -nodes -keyout tls.key -out tls.crt -days 30 -subj /CN=mx.ho10.test 2>/dev/null
postsuper -d ALL 2>/dev/null; : > $D/postfix.log
