sleep 5; echo "Content-Type: text/plain"; echo; echo late
