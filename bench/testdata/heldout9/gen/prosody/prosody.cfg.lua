-- heldout9 Prosody: one virtual host with a MUC component, c2s with
-- STARTTLS (a test certificate made by setup.sh), in-band registration,
-- BOSH and WebSocket on loopback, everything logged at info and above to one file.
local D = "/work/tmp-ho9/prosody"
prosody_user = "prosody"
prosody_group = "prosody"
pidfile = D .. "/run/prosody.pid"
data_path = D .. "/data"
plugin_paths = { }
admins = { "admin@ho9.test" }
interfaces = { "127.0.0.1" }
c2s_ports = { 5322 }
http_ports = { 5380 }
https_ports = { }
c2s_direct_tls_ports = { }
network_backend = "epoll"
modules_enabled = {
	"disco"; "roster"; "saslauth"; "tls"; "blocklist"; "carbons"; "pep";
	"private"; "smacks"; "vcard4"; "vcard_legacy"; "ping"; "register";
	"time"; "uptime"; "version"; "admin_adhoc"; "bosh"; "websocket";
	"mam"; "offline"; "lastactivity";
}
modules_disabled = { "s2s" }
allow_registration = true
min_seconds_between_registrations = 0
c2s_require_encryption = false
allow_unencrypted_plain_auth = true
authentication = "internal_hashed"
storage = "internal"
c2s_timeout = 8
smacks_hibernation_time = 3
limits = { c2s = { rate = "50kb/s" } }
consider_bosh_secure = true
consider_websocket_secure = true
log = { { levels = { min = "info" }, to = "file", filename = D .. "/log/prosody.log" } }
certificates = D .. "/certs"
VirtualHost "ho9.test"
	ssl = { key = D .. "/certs/ho9.test.key", certificate = D .. "/certs/ho9.test.crt" }
Component "rooms.ho9.test" "muc"
	restrict_room_creation = false
	max_history_messages = 5
