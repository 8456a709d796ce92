"""A loopback stand-in for api.github.localhost, the GraphQL endpoint gh uses
for the host github.localhost: it answers each POST with the recorded
response named by the query (cli/cli's own test fixtures, see README.md)."""
import http.server
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        name = "prList.json" if "pullRequests" in body.get("query", "") else "issueListWithAssignees.json"
        with open(os.path.join(here, name), "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
srv.serve_forever()
