#!/usr/bin/env python3
"""What the test does at the test OAuth server, printing one JSON line (stdlib only):

  client.py browse URL SESSION      GET the authorize URL with the session cookie, then the
                                    loopback callback it redirects to: {"authorize", "location", "callback"}
  client.py user BASE TOKEN         GET BASE/api/user with the token: {"status"}
  client.py refresh BASE ID SECRET REFRESH_TOKEN
                                    the refresh grant at BASE/o/token/ (SECRET "": a public
                                    client, client_id in the body): {"status", "error"}
  client.py raw METHOD URL           {"status", "body"}
  client.py introspect BASE ID SECRET TOKEN
                                    RFC 7662 at BASE/o/introspect/: {"status", "active"}
"""

import base64
import http.client
import json
import sys
import urllib.parse


def request(method, url, headers=None, body=None):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    target = parts.path + ("?" + parts.query if parts.query else "")
    connection.request(method, target, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), data


def basic(client_id, secret):
    return "Basic " + base64.b64encode(("%s:%s" % (client_id, secret)).encode()).decode()


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "browse":
        url, session = args
        status, headers, _ = request("GET", url, {"Cookie": "sessionid=" + session})
        result = {"authorize": status, "location": headers.get("location"), "callback": None}
        if status == 302 and (headers.get("location") or "").startswith("http://127.0.0.1:"):
            result["callback"] = request("GET", headers["location"])[0]
    elif command == "user":
        base, token = args
        result = {"status": request("GET", base + "/api/user", {"Authorization": "Bearer " + token})[0]}
    elif command == "refresh":
        base, client_id, secret, refresh = args
        params = {"grant_type": "refresh_token", "refresh_token": refresh}
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if secret:
            headers["Authorization"] = basic(client_id, secret)
        else:  # a public client
            params["client_id"] = client_id
        status, _, data = request("POST", base + "/o/token/", headers, urllib.parse.urlencode(params))
        result = {"status": status, "error": json.loads(data or b"{}").get("error")}
    elif command == "introspect":
        base, client_id, secret, token = args
        body = urllib.parse.urlencode({"token": token})
        status, _, data = request("POST", base + "/o/introspect/", {
            "Authorization": basic(client_id, secret), "Content-Type": "application/x-www-form-urlencoded"}, body)
        result = {"status": status, "active": json.loads(data or b"{}").get("active")}
    elif command == "raw":
        method, url = args
        status, _, data = request(method, url)
        result = {"status": status, "body": data.decode("utf-8")}
    else:
        sys.exit("unknown command " + command)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
