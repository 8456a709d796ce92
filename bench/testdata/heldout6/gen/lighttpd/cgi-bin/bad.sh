echo "this is not a header"; exit 3
