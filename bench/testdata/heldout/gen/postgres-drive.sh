#!/bin/bash
P="psql -h 127.0.0.1 -p 5499 -U postgres -q -X"
users=(alice bob carol dave erin frank)
dbs=(shop billing analytics)
for d in ${dbs[@]}; do createdb -h 127.0.0.1 -p 5499 -U postgres $d; done
for u in ${users[@]}; do $P -c "create role $u login" postgres; done
for d in ${dbs[@]}; do $P -d $d -c "create table orders(id int primary key, customer text, total numeric); create table items(id serial, order_id int, sku text); grant all on all tables in schema public to public; grant all on all sequences in schema public to public;"; done
tables=(orders items customers invoices payments products)
RANDOM=3
for i in $(seq 1 260); do
  u=${users[$((RANDOM % 6))]}; d=${dbs[$((RANDOM % 3))]}; t=${tables[$((RANDOM % 6))]}
  case $((RANDOM % 8)) in
    0) $P -U $u -d $d -c "select count(*) from $t" ;;
    1) $P -U $u -d $d -c "insert into orders values ($((RANDOM % 50)), '$u', $i)" ;;
    2) $P -U $u -d $d -c "select 1/0" ;;
    3) $P -U $u -d $d -c "selec * from $t" ;;
    4) $P -U $u -d $d -c "select * from items order by random() limit 1" ;;
    5) $P -U $u -d $d -c "insert into items(order_id, sku) select g, md5(g::text) from generate_series(1,3000) g" ;;
    6) $P -U $u -d nosuchdb -c "select 1" ;;
    7) $P -U $u -d $d -c "select * from generate_series(1,20000) g order by g desc limit 1" ;;
  esac
  if [ $((i % 60)) = 0 ]; then $P -c checkpoint postgres; fi
done
