import json, http.server, sys
pods = [("web-7d4b9c-2x8kq","1/1","Running","0","3d"),("web-7d4b9c-8hj2m","1/1","Running","0","3d"),
        ("web-7d4b9c-kq9zt","1/1","Running","0","3d"),("api-5f6d8-4rtx2","1/1","Running","1 (2d ago)","5d"),
        ("api-5f6d8-9wq7c","0/1","CrashLoopBackOff","17 (3m ago)","5d"),("api-5f6d8-lm3vn","1/1","Running","0","5d"),
        ("worker-0","1/1","Running","0","12d"),("worker-1","1/1","Running","0","12d"),("worker-2","1/1","Running","0","12d"),
        ("worker-3","1/1","Running","0","12d"),("db-0","1/1","Running","0","30d"),("cache-6b9f-xx2p1","0/1","Pending","0","1m"),
        ("cron-2871-zp4q","0/1","Completed","0","4h")]
def table():
    return {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"1"},
      "columnDefinitions":[{"name":n,"type":"string","format":f,"description":"","priority":0} for n,f in
        [("Name","name"),("Ready",""),("Status",""),("Restarts",""),("Age","")]],
      "rows":[{"cells":list(p),"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":p[0],"namespace":"default"}}} for p in pods]}
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self,*a): pass
    def send(self,o):
        b=json.dumps(o).encode(); self.send_response(200); self.send_header("Content-Type","application/json"); self.send_header("Content-Length",str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_GET(self):
        p=self.path.split("?")[0]
        if p=="/api": self.send({"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1"}]})
        elif p=="/apis": self.send({"kind":"APIGroupList","apiVersion":"v1","groups":[]})
        elif p=="/api/v1": self.send({"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod","namespaced":True,"kind":"Pod","verbs":["get","list"],"shortNames":["po"]}]})
        elif p.endswith("/pods"): self.send(table())
        else:
            self.send_response(404); self.end_headers()
http.server.HTTPServer(("127.0.0.1",int(sys.argv[1])),H).serve_forever()
