#!/bin/bash
# Drives mosquitto on 127.0.0.1:1884: seeded publishers and subscribers with client ids.
ids=(sensor-kitchen sensor-garage thermostat door-front door-back camera-1 light-hall light-porch meter weather garden-pump alarm)
topics=(home/kitchen/temp home/garage/door home/hall/light home/energy home/weather garden/pump alarm/state)
RANDOM=13
for i in $(seq 1 300); do
  id=${ids[$((RANDOM % ${#ids[@]}))]}; t=${topics[$((RANDOM % ${#topics[@]}))]}
  case $((RANDOM % 6)) in
    0|1|2) mosquitto_pub -p 1884 -i $id -t $t -m "v=$i" -q $((RANDOM % 3)) ;;
    3) timeout 1 mosquitto_sub -p 1884 -i $id-sub -t $t -C 1 -W 1 >/dev/null ;;
    4) mosquitto_pub -p 1884 -t $t -m "anon $i" ;;
    5) mosquitto_pub -p 1884 -i $id -t $t -m "retained $i" -r ;;
  esac
done
