"""Records what the server received at the revocation endpoint (GET /control/log returns it)."""

import threading

_lock = threading.Lock()
_entries = []


class RecordMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        body = request.body.decode("latin-1") if request.method == "POST" else ""
        response = self.get_response(request)
        if request.path.startswith("/o/") or request.path.startswith("/api/"):
            with _lock:
                _entries.append({"method": request.method, "path": request.path, "status": response.status_code,
                                 "authorization": request.headers.get("Authorization"),
                                 "content_type": request.headers.get("Content-Type"), "body": body})
        return response


def entries():
    with _lock:
        return list(_entries)


def clear():
    with _lock:
        _entries.clear()
