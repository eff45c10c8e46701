#!/usr/bin/env bash
# make_certs.sh DIR — throwaway TLS material for the fake GitHub (test use only).
#
# Creates in DIR (idempotent: files that already exist and are complete are kept):
#   ca.pem / ca.key                 a test CA
#   server.pem / server.key         leaf signed by the CA, SAN github.test, api.github.test,
#                                   ghe.test, localhost, 127.0.0.1
#   wronghost.pem / wronghost.key   leaf signed by the CA, SAN other.test only
#   expired.pem / expired.key       leaf signed by the CA, SAN as server, validity 2020-01-01..2020-01-02
#   selfsigned.pem / selfsigned.key self-signed, SAN github.test, not signed by the CA
# All keys are EC P-256. Needs only bash and the openssl command (tested with OpenSSL 3.0).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$1
mkdir -p "$dir"
cd "$dir"
umask 077

SERVER_SAN="DNS:github.test,DNS:api.github.test,DNS:ghe.test,DNS:localhost,IP:127.0.0.1"
done_marker=".complete-v1"
# Serialize concurrent runs on the same DIR so a set never mixes two CAs.
exec 9>".lock"
if command -v flock >/dev/null 2>&1; then
  flock 9
fi
if [ -f "$done_marker" ]; then
  exit 0
fi

# Work in a scratch directory and move finished files into place, so a concurrent
# or interrupted run never leaves a half-written set behind.
work=$(mktemp -d "./.work.XXXXXX")
trap 'rm -rf "$work"' EXIT

newkey() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# Leaf extensions file for `openssl x509 -req` / `openssl ca`.
leaf_ext() {
  cat <<EXT
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = $1
EXT
}

# --- the CA -------------------------------------------------------------
newkey "$work/ca.key"
openssl req -new -x509 -key "$work/ca.key" -out "$work/ca.pem" -days 3650 -sha256 \
  -subj "/CN=ghlogin fake GitHub test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "subjectKeyIdentifier=hash" 2>/dev/null

# sign NAME SAN: a leaf valid for 10 years signed by the CA.
sign() {
  local name=$1 san=$2
  newkey "$work/$name.key"
  openssl req -new -key "$work/$name.key" -out "$work/$name.csr" -subj "/CN=$name" 2>/dev/null
  leaf_ext "$san" > "$work/$name.ext"
  openssl x509 -req -in "$work/$name.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
    -set_serial "0x$(openssl rand -hex 16)" -days 3650 -sha256 \
    -extfile "$work/$name.ext" -out "$work/$name.pem" 2>/dev/null
}

sign server "$SERVER_SAN"
sign wronghost "DNS:other.test"

# --- expired: `openssl x509` in 3.0 has no -not_before, so use `openssl ca` with fixed dates.
newkey "$work/expired.key"
openssl req -new -key "$work/expired.key" -out "$work/expired.csr" -subj "/CN=expired" 2>/dev/null
mkdir -p "$work/ca-db"
: > "$work/ca-db/index.txt"
openssl rand -hex 16 > "$work/ca-db/serial"
cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = testca
[ testca ]
dir = $work/ca-db
database = \$dir/index.txt
serial = \$dir/serial
new_certs_dir = \$dir
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
[ leaf ]
$(leaf_ext "$SERVER_SAN")
CNF
openssl ca -batch -config "$work/ca.cnf" -extensions leaf -notext \
  -cert "$work/ca.pem" -keyfile "$work/ca.key" -in "$work/expired.csr" \
  -startdate 20200101000000Z -enddate 20200102000000Z -out "$work/expired.pem" 2>/dev/null

# --- self-signed, not from the CA
newkey "$work/selfsigned.key"
openssl req -new -x509 -key "$work/selfsigned.key" -out "$work/selfsigned.pem" -days 3650 -sha256 \
  -subj "/CN=github.test" \
  -addext "basicConstraints=critical,CA:FALSE" \
  -addext "subjectAltName=DNS:github.test" 2>/dev/null

for name in ca server wronghost expired selfsigned; do
  mv -f "$work/$name.key" "$work/$name.pem" .
done
chmod 0644 ./*.pem
touch "$done_marker"
