echo "warning: slow disk for $QUERY_STRING" >&2; echo "Content-Type: text/plain"; echo; echo done
