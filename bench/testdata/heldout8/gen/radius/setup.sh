#!/bin/bash
# A private copy of the installed FreeRADIUS configuration under the scratch
# directory, with this run's radiusd.conf settings, site, modules, users and
# proxy realm (no certificates: EAP is not enabled).
D=/work/tmp-ho8/radius; G=$(dirname "$(readlink -f "$0")")
rm -rf $D/raddb $D/log $D/run; mkdir -p $D/log/radacct $D/run
cp -a /etc/freeradius/3.0 $D/raddb; cd $D/raddb
rm -f sites-enabled/* mods-enabled/*
for m in always attr_filter chap pap files preprocess expiration logintime detail mschap digest realm unpack expr; do
  ln -s ../mods-available/$m mods-enabled/$m; done
cp $G/site-ho8 sites-enabled/ho8; cp $G/clients.conf clients.conf; cp $G/proxy.conf proxy.conf
cp $G/authorize mods-config/files/authorize
sed -i -e "s|^logdir = .*|logdir = $D/log|" -e "s|^raddbdir = .*|raddbdir = $D/raddb|" -e "s|^run_dir = .*|run_dir = $D/run|" \
  -e "s|^\(\s*\)user = freerad|\1#user = freerad|" -e "s|^\(\s*\)group = freerad|\1#group = freerad|" \
  -e "s|^\(\s*\)auth = no|\1auth = yes|" -e "s|^\(\s*\)auth_badpass = no|\1auth_badpass = yes|" \
  -e "s|^\(\s*\)auth_goodpass = no|\1auth_goodpass = yes|" \
  -e "s|^\(\s*\)reject_delay = 1|\1reject_delay = 0|" radiusd.conf
