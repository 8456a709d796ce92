#!/usr/bin/env python3
"""Seeded LDAP clients of the heldout8 slapd: adds, searches with varied
filters and attribute lists, modifies, renames, deletes, compares, binds with
right and wrong passwords, whoami and password changes, SASL EXTERNAL over
ldapi, StartTLS that the server cannot do, raw garbage and idle clients.
usage: slapd-drive.py STEPS SEED"""
import os, random, socket, subprocess, sys, time

H, BASE = "ldap://127.0.0.1:3890", "dc=ho8,dc=test"
ADMIN, PW = "cn=admin," + BASE, "ho8-made-up-admin-pw"
LDAPI = "ldapi://%2Fwork%2Ftmp-ho8%2Fslapd%2Frun%2Fldapi"
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
         "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "zoe"]
ATTRS = ["cn", "sn", "mail", "uid", "uidNumber", "gidNumber", "homeDirectory", "loginShell",
         "description", "telephoneNumber", "memberUid", "objectClass", "+", "*", "1.1"]
users = {}   # uid -> password of entries added so far

def run(args, data=None, env=None):
    subprocess.run(args, input=data, capture_output=True, text=True, timeout=20, env=env)

def user_ldif(n, i):
    return (f"dn: uid={n},ou=people,{BASE}\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n"
            f"uid: {n}\ncn: {n.title()} Test\nsn: Test\nmail: {n}@ho8.test\nuidNumber: {2000+i}\n"
            f"gidNumber: 100\nhomeDirectory: /home/{n}\nloginShell: /bin/bash\nuserPassword: pw-{n}\n")

def add(r):
    n = r.choice(NAMES)
    run(["ldapadd", "-x", "-H", H, "-D", ADMIN, "-w", PW], user_ldif(n, NAMES.index(n)))
    users[n] = "pw-" + n

def group(r):
    g = r.choice(["staff", "ops", "dev", "audit"])
    members = "".join(f"memberUid: {m}\n" for m in r.sample(NAMES, r.randint(1, 5)))
    run(["ldapadd", "-x", "-H", H, "-D", ADMIN, "-w", PW],
        f"dn: cn={g},ou=groups,{BASE}\nobjectClass: posixGroup\ncn: {g}\ngidNumber: {500+len(g)}\n{members}")

def search(r):
    f = r.choice(["(uid=%s)" % r.choice(NAMES), "(objectClass=*)", "(&(objectClass=posixAccount)(uid=%s*))" % r.choice("abcdefgmz"),
                  "(|(cn=%s*)(mail=%s@ho8.test))" % (r.choice(NAMES).title(), r.choice(NAMES)), "(memberUid=%s)" % r.choice(NAMES),
                  "(!(loginShell=/bin/bash))", "(uidNumber>=%d)" % r.randint(2000, 2020), "(cn~=%s)" % r.choice(NAMES)])
    base = r.choice([BASE, "ou=people," + BASE, "ou=groups," + BASE, "ou=secret," + BASE, "ou=missing," + BASE, "dc=other,dc=test"])
    who = r.choice([[], [], ["-D", ADMIN, "-w", PW]] + ([["-D", "uid=%s,ou=people,%s" % (u, BASE), "-w", users[u]] for u in users][:3]))
    extra = r.choice([[], [], ["-s", "one"], ["-s", "base"], ["-z", "3"], ["-E", "pr=4/noprompt"], ["-l", "1"]])
    run(["ldapsearch", "-x", "-H", H, "-b", base] + who + extra + [f] + r.sample(ATTRS, r.randint(0, 5)))

def bind(r):
    u = r.choice(NAMES)
    pw = users.get(u, "x") if r.random() < 0.5 else "wrong-" + u
    run(["ldapwhoami", "-x", "-H", H, "-D", "uid=%s,ou=people,%s" % (u, BASE), "-w", pw])

def modify(r):
    u = r.choice(NAMES)
    op = r.choice(["replace: description\ndescription: seen %d\n" % r.randint(1, 99),
                   "add: telephoneNumber\ntelephoneNumber: +1 555 01%02d\n" % r.randint(0, 99),
                   "delete: telephoneNumber\n", "replace: loginShell\nloginShell: /bin/%s\n" % r.choice(["sh", "zsh", "dash"]),
                   "add: bogusAttr\nbogusAttr: 1\n"])
    who = ["-D", ADMIN, "-w", PW] if r.random() < 0.8 else []
    run(["ldapmodify", "-x", "-H", H] + who, f"dn: uid={u},ou=people,{BASE}\nchangetype: modify\n{op}")

def delete(r):
    u = r.choice(NAMES)
    run(["ldapdelete", "-x", "-H", H, "-D", ADMIN, "-w", PW, "uid=%s,ou=people,%s" % (u, BASE)])
    users.pop(u, None)

def rename(r):
    a, b = r.sample(NAMES, 2)
    run(["ldapmodrdn", "-x", "-H", H, "-D", ADMIN, "-w", PW, "-r", "uid=%s,ou=people,%s" % (a, BASE), "uid=%s" % b])
    if a in users:
        users.pop(a); users.pop(b, None)

def compare(r):
    u = r.choice(NAMES)
    run(["ldapcompare", "-x", "-H", H, "uid=%s,ou=people,%s" % (u, BASE), r.choice(["loginShell:/bin/bash", "sn:Test", "mail:%s@ho8.test" % u, "nosuch:1"])])

def passwd(r):
    u = r.choice(NAMES)
    dn = "uid=%s,ou=people,%s" % (u, BASE)
    if r.random() < 0.5:
        run(["ldappasswd", "-x", "-H", H, "-D", ADMIN, "-w", PW, "-s", "pw-" + u, dn])
    else:
        run(["ldappasswd", "-x", "-H", H, "-D", dn, "-w", users.get(u, "no"), "-s", "pw-" + u])

def external(r):
    run(["ldapsearch", "-Q", "-Y", "EXTERNAL", "-H", LDAPI, "-b", BASE, "(uid=%s)" % r.choice(NAMES), "cn"])

def tls(r):
    """StartTLS and ldaps with the test CA, without it (the client gives up), or a bind after TLS."""
    env = dict(os.environ, LDAPTLS_CACERT="/work/tmp-ho8/slapd/ca.pem") if r.random() < 0.7 else dict(os.environ, LDAPTLS_REQCERT="demand", LDAPTLS_CACERT="/etc/ssl/certs/ca-certificates.crt")
    how = r.choice([["-ZZ", "-H", H], ["-H", "ldaps://127.0.0.1:6360"]])
    who = r.choice([[], ["-D", ADMIN, "-w", PW]])
    run(["ldapwhoami", "-x"] + how + who, env=env)

def invalid(r):
    """Requests whose DN or new RDN does not parse, and changes to the root DSE."""
    kind = r.choice(["search", "delete", "modify", "modrdn", "rootdse"])
    bad = r.choice(["nonsense", "uid", "=x,dc=ho8", "ou=people,,dc=test"])
    if kind == "search":
        run(["ldapsearch", "-x", "-H", H, "-b", bad, "(objectClass=*)"])
    elif kind == "delete":
        run(["ldapdelete", "-x", "-H", H, "-D", ADMIN, "-w", PW, bad])
    elif kind == "modify":
        run(["ldapmodify", "-x", "-H", H, "-D", ADMIN, "-w", PW], f"dn: {bad}\nchangetype: modify\nreplace: description\ndescription: x\n")
    elif kind == "modrdn":
        run(["ldapmodrdn", "-x", "-H", H, "-D", ADMIN, "-w", PW, "uid=%s,ou=people,%s" % (r.choice(NAMES), BASE), bad])
    else:
        run(["ldapdelete", "-x", "-H", H, "-D", ADMIN, "-w", PW, ""])

def referral(r):
    run(["ldapsearch", "-x", "-H", H, "-b", r.choice([BASE, "ou=remote," + BASE]), "(ou=*)", "ou"])

def simple_bind(msgid, dn, pw):
    """The BER of an LDAPv3 simple BindRequest (short lengths only)."""
    dn, pw = dn.encode(), pw.encode()
    body = bytes([0x02, 0x01, 0x03, 0x04, len(dn)]) + dn + bytes([0x80, len(pw)]) + pw
    msg = bytes([0x02, 0x01, msgid, 0x60, len(body)]) + body
    return bytes([0x30, len(msg)]) + msg

def raw(r):
    s = socket.create_connection(("127.0.0.1", 3890), timeout=3)
    kind = r.choice(["garbage", "http", "idle", "hang", "abandon", "nopw", "rebind", "tlsjunk"])
    if kind == "tlsjunk":     # not a TLS ClientHello, to the ldaps port
        s.close()
        s = socket.create_connection(("127.0.0.1", 6360), timeout=3)
    try:
        if kind == "garbage":
            s.sendall(bytes(r.randrange(256) for _ in range(r.randint(4, 64))))
        elif kind == "http":
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        elif kind == "abandon":   # LDAPMessage { messageID 1, abandonRequest [APPLICATION 16] msg }
            s.sendall(bytes([0x30, 0x06, 0x02, 0x01, 0x01, 0x50, 0x01, r.randint(2, 9)]))
        elif kind == "nopw":      # a simple bind with a DN and an empty password (unauthenticated)
            dn = ("uid=%s,ou=people,%s" % (r.choice(NAMES), BASE)).encode()
            body = bytes([0x02, 0x01, 0x03, 0x04, len(dn)]) + dn + bytes([0x80, 0x00])
            msg = bytes([0x02, 0x01, 0x01, 0x60, len(body)]) + body
            s.sendall(bytes([0x30, len(msg)]) + msg)
        elif kind == "rebind":    # a simple bind as the admin, then an anonymous bind on the same connection
            s.sendall(simple_bind(1, ADMIN, PW)); s.recv(100)
            s.sendall(simple_bind(2, "", "")); s.recv(100)
        elif kind == "tlsjunk":
            s.sendall(b"\x16\x03\x01\x00\x05hello" + bytes(r.randrange(256) for _ in range(20)))
        elif kind == "idle":
            time.sleep(5)
        s.recv(100)
    except OSError:
        pass
    s.close()

STEPS = [(add, 6), (group, 1), (search, 9), (bind, 4), (modify, 3), (delete, 1), (rename, 1), (compare, 2),
         (passwd, 2), (external, 1), (tls, 2), (referral, 1), (invalid, 2), (raw, 3)]

def main():
    n, r = int(sys.argv[1]), random.Random(int(sys.argv[2]))
    run(["ldapadd", "-x", "-H", H, "-D", ADMIN, "-w", PW], open("base.ldif").read())
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        r.choice(fns)(r)

main()
