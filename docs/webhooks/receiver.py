"""A webhook receiver for the one-time-secret service, in Python 3 with the standard library only.

Run: WEBHOOK_SECRET=whsec_... PORT=8080 python3 receiver.py

It accepts a delivery that either signature verifies: ours (x-svc-signature) or the Standard
Webhooks one (webhook-signature); keep the one you use. With `pip install standardwebhooks`,
`Webhook(SECRET).verify(raw_body, headers)` does what verify_standard does.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ.get("WEBHOOK_SECRET", "")
TOLERANCE_MS = 300_000  # `t` is in MILLISECONDS since the epoch, not seconds.
STANDARD_TOLERANCE_S = 300  # webhook-timestamp is in SECONDS.


def verify(raw_body: bytes, header: str | None, secret: str, now_ms: int | None = None) -> bool:
    if not secret or header is None:
        return False
    timestamp, signatures = None, []
    for part in header.split(","):
        key, _, value = part.partition("=")
        if key == "t":
            timestamp = value
        elif key == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(value)
    if timestamp is None or not timestamp.isdigit():
        return False
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    if abs(now_ms - int(timestamp)) > TOLERANCE_MS:
        return False
    expected = hmac.new(secret.encode("utf-8"), timestamp.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, candidate) for candidate in signatures)


def verify_standard(raw_body: bytes, headers, secret: str, now_s: int | None = None) -> bool:
    event_id, timestamp, signatures = (headers.get(name) for name in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not secret.startswith("whsec_") or event_id is None or signatures is None or timestamp is None or not timestamp.isdigit():
        return False
    now_s = int(time.time()) if now_s is None else now_s
    if abs(now_s - int(timestamp)) > STANDARD_TOLERANCE_S:
        return False
    key = base64.b64decode(secret[len("whsec_"):])
    digest = hmac.new(key, f"{event_id}.{timestamp}.".encode() + raw_body, hashlib.sha256).digest()
    expected = "v1," + base64.b64encode(digest).decode()
    return any(hmac.compare_digest(expected, candidate) for candidate in signatures.split(" "))


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw_body = self.rfile.read(int(self.headers.get("content-length", "0")))  # the raw bytes, before parsing
        if not (verify(raw_body, self.headers.get("x-svc-signature"), SECRET) or verify_standard(raw_body, self.headers, SECRET)):
            self.send_response(401)
            self.end_headers()
            return
        # Answer at once; do the work afterwards. Deliveries may repeat: x-svc-event-id is the same on every retry.
        self.send_response(200)
        self.end_headers()
        event = json.loads(raw_body)
        print(f"verified {event['event']} {self.headers.get('x-svc-event-id')}", flush=True)

    def log_message(self, *args):
        pass  # no access log: a path or header may hold what should not be logged


server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8080"))), Receiver)
print(f"listening on {server.server_address[1]}", flush=True)
server.serve_forever()
