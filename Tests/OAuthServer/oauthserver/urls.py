import json

from django.http import HttpResponse, JsonResponse
from django.urls import include, path
from oauth2_provider.oauth2_backends import get_oauthlib_core

from . import log


def user(request):
    """GitHub's GET /user for this server: the token's user as {"login", "id"}; 401 otherwise."""
    valid, result = get_oauthlib_core().verify_request(request, scopes=[])
    if not valid:
        response = JsonResponse({"message": "Bad credentials"}, status=401)
        response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
        return response
    return JsonResponse({"login": result.user.username, "id": result.user.id, "name": None, "email": None})


def control_log(request):
    if request.method == "POST":
        log.clear()
        return JsonResponse({"ok": True})
    return HttpResponse(json.dumps(log.entries()), content_type="application/json")


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("api/user", user),
    path("control/log", control_log),
]
