#!/usr/bin/env python3
"""bench/realistic.py CONFIG_DIR TOKEN REFRESH NOW HOSTS: the realistic case of bench/run (issue 30).

Writes CONFIG_DIR/config.json, a config with `client_id`, `scopes` and the four endpoint URLs of
github.com, and CONFIG_DIR/credentials.json (0600), a version-2 file as ghlogin's store writes it
(`CredentialCoding.encode`: keys in its order, two-space indent, times as seconds with a fraction)
holding one GitHub App login on github.com: the config's `client_id`, a token expiring 8 hours
after NOW (so no run refreshes it), a refresh token and its expiry. With HOSTS > 1, HOSTS - 1
other hosts (`ghe-N.example.com`, each with a login of its own) come first in the file, for the
per-host rows.
"""
import json
import os
import sys

CLIENT_ID = "Iv23liBENCHAPP00000a"


def account(login, user_id, token, refresh, now, client_id):
    # The order CredentialCoding.encode writes; a GitHub App's token has no scopes.
    return {
        "login": login,
        "user_id": user_id,
        "token": token,
        "token_type": "bearer",
        "scopes": [],
        "created_at": now - 3600.25,
        "expires_at": now + 8 * 3600 + 0.5,
        "refresh_token": refresh,
        "refresh_token_expires_at": now + 184 * 86400 + 0.5,
        "client_id": client_id,
    }


def main(directory, token, refresh, now, hosts):
    now, hosts = float(now), int(hosts)
    config = {
        "client_id": CLIENT_ID,
        "scopes": ["repo", "read:org", "gist"],
        "authorize_url": "https://github.com/login/oauth/authorize",
        "token_url": "https://github.com/login/oauth/access_token",
        "device_code_url": "https://github.com/login/device/code",
        "api_url": "https://api.github.com",
    }
    entries = {}
    for n in range(1, hosts):  # sorted as the store writes them: ghe-* before github.com
        name = f"ghe-{n:04d}.example.com"
        entries[name] = {"active": "octocat", "accounts": [account(
            "octocat", 1000 + n, f"ghu_{n:036d}", f"ghr_{n:076d}", now, f"Iv23liGHE{n:011d}")]}
    entries["github.com"] = {"active": "octocat", "accounts": [account("octocat", 1, token, refresh, now, CLIENT_ID)]}
    old = os.umask(0o077)
    try:
        with open(os.path.join(directory, "config.json"), "w") as f:
            f.write(json.dumps(config, indent=2) + "\n")
        with open(os.path.join(directory, "credentials.json"), "w") as f:
            f.write(json.dumps({"version": 2, "hosts": entries}, indent=2))
    finally:
        os.umask(old)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
