#ifndef GHLOGIN_COPENSSL_SHIM_H
#define GHLOGIN_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>

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
