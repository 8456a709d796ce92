# Accepts HTTP connections on a port and answers each after a delay, so that
# haproxy's server and check timeouts fire.
import socket, sys, threading, time
port, delay = int(sys.argv[1]), float(sys.argv[2])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(64)
def serve(c):
    try:
        c.recv(4096); time.sleep(delay)
        c.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nslow\n")
    except OSError:
        pass
    c.close()
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
