#!/bin/bash
paths=(/ /index.html /a.html /b.css /c.js /docs/ /docs/readme.txt /missing.html /wp-login.php /admin/ /private/ /private/x /api/users /api/orders/17 /limited/ /robots.txt /favicon.ico /.env /cgi-bin/test.cgi /docs/old.txt)
methods=(GET GET GET GET HEAD POST GET)
agents=("curl/7.88.1" "Mozilla/5.0 (X11; Linux x86_64)" "Wget/1.21.3" "python-requests/2.31.0")
RANDOM=5
for i in $(seq 1 1400); do
  p=${paths[$((RANDOM % ${#paths[@]}))]}
  m=${methods[$((RANDOM % ${#methods[@]}))]}
  a=${agents[$((RANDOM % ${#agents[@]}))]}
  if [ $m = HEAD ]; then curl -s -I -A "$a" "http://127.0.0.1:8089$p" >/dev/null
  elif [ $m = POST ]; then curl -s -X POST -d x=1 -A "$a" "http://127.0.0.1:8089$p" >/dev/null
  else curl -s -A "$a" "http://127.0.0.1:8089$p?q=$i" >/dev/null; fi
done
