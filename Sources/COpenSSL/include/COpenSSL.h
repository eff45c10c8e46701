#ifndef GHLOGIN_COPENSSL_H
#define GHLOGIN_COPENSSL_H

/* OpenSSL 3 for ghlogin, loaded with dlopen on first use.
 *
 * The binary does not link libssl/libcrypto (they are not NEEDED), so commands that make no
 * TLS connection (token, git-credential get) never map them or pay for their ~5,000 symbol
 * relocations. The OpenSSL functions ghlogin calls are defined in openssl_loader.c with
 * OpenSSL's own names and prototypes (checked against these headers), hidden from the
 * dynamic symbol table, and forward through a table that ghl_openssl_load() fills from
 * libssl.so.3 with dlsym. Swift code calls them by their usual names; a function missing
 * from that file's list fails the link. */

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>

#include <stddef.h>

/* Loads libssl.so.3 (which brings libcrypto.so.3) and resolves every function, once per
 * process (pthread_once). Returns 1 when OpenSSL is usable, 0 otherwise; then
 * ghl_openssl_load_error() says why. Calling an OpenSSL function before a successful load
 * aborts the process with a message: that is a bug in ghlogin, not a runtime condition. */
int ghl_openssl_load(void);

/* Why the last ghl_openssl_load() failed (dlerror's text, e.g. "libssl.so.3: cannot open
 * shared object file: No such file or directory"); "" after a success. */
const char *ghl_openssl_load_error(void);

/* For tests: opens `soname` and resolves every function into a scratch table (the process's
 * table is not touched). Returns 1 on success; else 0 with the reason in `reason`. */
int ghl_openssl_probe(const char *soname, char *reason, size_t reason_size);

/* Function-like macros Swift cannot import; each wraps exactly one. */

static inline long ghl_set_sni(SSL *ssl, const char *name) {
  return SSL_set_tlsext_host_name(ssl, name);
}

static inline long ghl_ctx_set_mode(SSL_CTX *ctx, long mode) {
  return SSL_CTX_set_mode(ctx, mode);
}

static inline int ghl_ctx_set_min_proto(SSL_CTX *ctx, int version) {
  return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/* How many certificates and CRLs the context's trust store holds (files loaded so far;
   hashed directories are looked up lazily and not counted). */
static inline int ghl_ctx_trusted_count(SSL_CTX *ctx) {
  return sk_X509_OBJECT_num(X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx)));
}

/* The reason part of an OpenSSL error code (ERR_GET_REASON). */
static inline int ghl_err_reason(unsigned long code) {
  return ERR_GET_REASON(code);
}

#endif
