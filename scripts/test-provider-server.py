#!/usr/bin/env python3
"""A fake AI-provider server for ProviderClient's tests. Loopback only, standard library only.

It listens on 127.0.0.1 (never another address) on one or more ephemeral ports, prints one JSON
line {"ports": [...]} on stdout when ready, and records every request it receives:

  --log FILE        one JSON object per request: port, request line, headers, body. Values of
                    credential headers are replaced by "<received N chars>" so this file can go
                    into the artifact folder that `keyshape scan` audits: a credential that shows
                    up anywhere else (request line, another header, the body) stays verbatim and
                    the scan catches it.
  --auth-log FILE   the credential header values as received, for the tests that assert the key
                    arrived in the expected header. Kept out of the artifact folder on purpose.

Credential headers are authorization, x-api-key, api-key and every --credential-header NAME.

The server stops when stdin reaches end of file (the test closed it or died) or after
--max-seconds, whichever comes first, so a crashed test cannot leave it running.

Behaviour is chosen by the first path segment of the base URL, so one server covers every case:
  /ok/...            200; JSON, or server-sent events when the body asks for "stream": true
  /plain/...         200 with a JSON body even when the request asks for a stream
  /slow/...          like /ok but streams one event every 0.2 s for up to 10 s (cancellation)
  /status/CODE/...   that status with a provider-style error body; 429 and 529/503 carry
                     Retry-After: 7. The 401 body echoes the received credential, the way a
                     careless provider might, so the client's scrubbing is exercised.
  /echo-mangled/CODE/...  that status, the error body echoing each received credential the
                     ways a careless provider might besides whole: without its first 10
                     characters (a key's prefix), upper-cased, and a 12-character piece.
  /redirect-port/PORT/REST   307 to http://127.0.0.1:PORT/REST (another origin)
  /redirect-same/REST        307 to /REST on this port (same origin)
The API is chosen by the path's end: .../v1/messages is Anthropic, .../chat/completions OpenAI.
"""

import argparse
import http.server
import json
import os
import sys
import threading
import time

CREDENTIAL_HEADERS = {"authorization", "x-api-key", "api-key"}
LOCK = threading.Lock()


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ports", type=int, default=1)
    parser.add_argument("--log", required=True)
    parser.add_argument("--auth-log", required=True)
    parser.add_argument("--credential-header", action="append", default=[])
    parser.add_argument("--max-seconds", type=float, default=300)
    return parser.parse_args()


ARGS = parse_args()
CREDENTIAL_HEADERS.update(name.lower() for name in ARGS.credential_header)


def append(path, record):
    with LOCK:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, sort_keys=True) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the default writes to stderr; the log files suffice
        pass

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        port = self.server.server_address[1]
        headers, credentials = [], []
        for name, value in self.headers.items():
            if name.lower() in CREDENTIAL_HEADERS:
                headers.append([name, "<received %d chars>" % len(value)])
                credentials.append([name, value])
            else:
                headers.append([name, value])
        append(ARGS.log, {"port": port, "requestLine": self.requestline, "headers": headers,
                          "body": body.decode("utf-8", "replace")})
        append(ARGS.auth_log, {"port": port, "path": self.path, "credentials": credentials})
        self.credentials = credentials
        self.route(body)

    def route(self, body):
        parts = self.path.lstrip("/").split("/")
        head = parts[0]
        if head == "redirect-port":
            self.redirect("http://127.0.0.1:%s/%s" % (parts[1], "/".join(parts[2:])))
        elif head == "redirect-same":
            self.redirect("/" + "/".join(parts[1:]))
        elif head == "status":
            self.fail(int(parts[1]))
        elif head == "echo-mangled":
            self.fail(int(parts[1]), mangled=True)
        else:
            try:
                request = json.loads(body or b"{}")
            except ValueError:
                request = {}
            if request.get("stream") and head != "plain":
                self.stream(slow=head == "slow")
            else:
                self.reply()

    def is_anthropic(self):
        return self.path.rstrip("/").endswith("/v1/messages")

    def send(self, status, payload, extra=()):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location):
        self.send_response(307)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def fail(self, status, mangled=False):
        extra = [("Retry-After", "7")] if status in (429, 503, 529) else []
        kinds = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                 429: "rate_limit_error", 529: "overloaded_error"}
        message = "request failed"
        if mangled:
            pieces = []
            for name, value in self.credentials:
                bare = value.split(" ", 1)[-1]  # without a scheme such as "Bearer "
                pieces.append("%s: key %s, normalised %s, ending in ...%s..." % (
                    name, bare[10:], bare.upper(), bare[len(bare) // 2:len(bare) // 2 + 12]))
            message = "invalid credentials; " + "; ".join(pieces)
        elif status == 401:
            echoed = " ".join("%s=%s" % (name, value) for name, value in self.credentials)
            message = "invalid credentials: " + echoed
        self.send(status, {"type": "error", "error": {"type": kinds.get(status, "api_error"), "message": message}},
                  extra)

    def reply(self):
        if self.is_anthropic():
            self.send(200, {"id": "msg_test", "type": "message", "role": "assistant",
                            "content": [{"type": "text", "text": "Hello from the test server."}],
                            "stop_reason": "end_turn", "usage": {"input_tokens": 3, "output_tokens": 6}})
        else:
            self.send(200, {"id": "chatcmpl-test", "object": "chat.completion",
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant", "content": "Hello from the test server."}}]})

    def stream(self, slow):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        pieces = ["Hello", " from", " the", " stream", "."]
        if slow:
            pieces = ["tick "] * 50
        try:
            if self.is_anthropic():
                self.event("message_start", {"type": "message_start", "message": {"id": "msg_test", "role": "assistant"}})
                self.event("content_block_start", {"type": "content_block_start", "index": 0,
                                                   "content_block": {"type": "text", "text": ""}})
                self.wfile.write(b": keep-alive comment\n\n")
                self.event("ping", {"type": "ping"})
                for piece in pieces:
                    self.event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                       "delta": {"type": "text_delta", "text": piece}})
                    if slow:
                        time.sleep(0.2)
                self.event("content_block_stop", {"type": "content_block_stop", "index": 0})
                self.event("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                                             "usage": {"output_tokens": 5}})
                self.event("message_stop", {"type": "message_stop"})
            else:
                for piece in pieces:
                    self.data({"id": "chatcmpl-test", "object": "chat.completion.chunk",
                               "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
                    if slow:
                        time.sleep(0.2)
                self.data({"id": "chatcmpl-test", "object": "chat.completion.chunk",
                           "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client cancelled
        self.close_connection = True

    def event(self, name, payload):
        # CRLF line endings in one API and LF in the other keep the client's parser honest.
        self.wfile.write(("event: %s\r\ndata: %s\r\n\r\n" % (name, json.dumps(payload))).encode())
        self.wfile.flush()

    def data(self, payload):
        self.wfile.write(("data: %s\n\n" % json.dumps(payload)).encode())
        self.wfile.flush()


def main():
    servers = []
    for _ in range(ARGS.ports):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    print(json.dumps({"ports": [s.server_address[1] for s in servers]}), flush=True)

    def watch_stdin():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    time.sleep(ARGS.max_seconds)
    os._exit(0)


if __name__ == "__main__":
    main()
