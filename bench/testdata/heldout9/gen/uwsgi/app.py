"""The heldout9 uWSGI application: answers with a status, a size and a
delay the path asks for, and writes nothing to the log itself."""
import time


def application(env, start_response):
    parts = env.get("PATH_INFO", "/").strip("/").split("/")
    status, size, delay = "200 OK", 64, 0.0
    if parts[0] == "status" and len(parts) > 1:
        status = {"201": "201 Created", "204": "204 No Content", "301": "301 Moved Permanently", "403": "403 Forbidden",
                  "404": "404 Not Found", "500": "500 Internal Server Error", "503": "503 Service Unavailable"}.get(parts[1], "400 Bad Request")
    elif parts[0] == "bytes" and len(parts) > 1 and parts[1].isdigit():
        size = min(int(parts[1]), 2000000)
    elif parts[0] == "sleep" and len(parts) > 1:
        delay = float(parts[1])
    if env.get("REQUEST_METHOD") in ("POST", "PUT"):
        env["wsgi.input"].read()
    time.sleep(delay)
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(size))]
    if status.startswith("301"):
        headers.append(("Location", "/"))
    start_response(status, headers)
    return [b"x" * size]
