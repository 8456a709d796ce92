echo "Content-Type: text/plain"; echo; echo "query=$QUERY_STRING"
