/* OpenSSL 3, loaded with dlopen on the first TLS connection or crypto call.
 *
 * Each function ghlogin uses is listed once below, with OpenSSL's prototype. From that list
 * come a table of pointers (filled with dlsym by ghl_openssl_load) and one forwarder per
 * function with OpenSSL's own name, which the compiler checks against the real headers.
 * The forwarders have hidden visibility: they are not in the executable's dynamic symbol
 * table, so they can never interpose on libssl's calls into libcrypto. */

#include "COpenSSL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname of OpenSSL 3's libssl; its NEEDED entry brings libcrypto.so.3, and dlsym on
 * its handle finds libcrypto's functions too. */
#define GHL_LIBSSL_SONAME "libssl.so.3"

/* X(return type, name, (parameters), (arguments)) for functions that return a value;
 * V(name, (parameters), (arguments)) for void ones. Add a function here before calling it
 * from Swift: without it the link fails with an undefined symbol. */
#define GHL_OPENSSL_FUNCTIONS(X, V)                                                               \
  V(BIO_free_all, (BIO *a), (a))                                                                  \
  X(BIO *, BIO_new_mem_buf, (const void *buf, int len), (buf, len))                               \
  X(int, CRYPTO_memcmp, (const void *a, const void *b, size_t len), (a, b, len))                  \
  V(ERR_clear_error, (void), ())                                                                  \
  V(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len))                  \
  X(unsigned long, ERR_get_error, (void), ())                                                     \
  X(unsigned long, ERR_peek_error, (void), ())                                                    \
  X(const char *, ERR_reason_error_string, (unsigned long e), (e))                                \
  X(int, EVP_Digest,                                                                              \
    (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type,   \
     ENGINE *impl),                                                                               \
    (data, count, md, size, type, impl))                                                          \
  X(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                     \
  V(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                    \
  X(int, EVP_DigestSign,                                                                          \
    (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs,            \
     size_t tbslen),                                                                              \
    (ctx, sigret, siglen, tbs, tbslen))                                                           \
  X(int, EVP_DigestSignInit,                                                                      \
    (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),        \
    (ctx, pctx, type, e, pkey))                                                                   \
  V(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                      \
  X(int, EVP_PKEY_get_base_id, (const EVP_PKEY *pkey), (pkey))                                    \
  X(const EVP_MD *, EVP_sha256, (void), ())                                                       \
  V(OPENSSL_cleanse, (void *ptr, size_t len), (ptr, len))                                         \
  X(int, OPENSSL_sk_num, (const OPENSSL_STACK *stack), (stack))                                   \
  X(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO *bp, EVP_PKEY **x, pem_password_cb *cb, void *u),   \
    (bp, x, cb, u))                                                                               \
  X(int, RAND_bytes, (unsigned char *buf, int num), (buf, num))                                   \
  X(long, SSL_CTX_ctrl, (SSL_CTX *ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg))   \
  V(SSL_CTX_free, (SSL_CTX *ctx), (ctx))                                                          \
  X(X509_STORE *, SSL_CTX_get_cert_store, (const SSL_CTX *ctx), (ctx))                            \
  X(int, SSL_CTX_load_verify_locations, (SSL_CTX *ctx, const char *file, const char *path),       \
    (ctx, file, path))                                                                            \
  X(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *method), (method))                                 \
  V(SSL_CTX_set_verify, (SSL_CTX *ctx, int mode, SSL_verify_cb callback), (ctx, mode, callback))  \
  X(int, SSL_connect, (SSL *ssl), (ssl))                                                          \
  X(long, SSL_ctrl, (SSL *ssl, int cmd, long larg, void *parg), (ssl, cmd, larg, parg))           \
  V(SSL_free, (SSL *ssl), (ssl))                                                                  \
  X(X509_VERIFY_PARAM *, SSL_get0_param, (SSL *ssl), (ssl))                                       \
  X(int, SSL_get_error, (const SSL *ssl, int ret), (ssl, ret))                                    \
  X(int, SSL_get_verify_mode, (const SSL *ssl), (ssl))                                            \
  X(long, SSL_get_verify_result, (const SSL *ssl), (ssl))                                         \
  X(SSL *, SSL_new, (SSL_CTX *ctx), (ctx))                                                        \
  X(int, SSL_read_ex, (SSL *ssl, void *buf, size_t num, size_t *read), (ssl, buf, num, read))     \
  X(int, SSL_set1_host, (SSL *ssl, const char *hostname), (ssl, hostname))                        \
  X(int, SSL_set_fd, (SSL *ssl, int fd), (ssl, fd))                                               \
  V(SSL_set_hostflags, (SSL *ssl, unsigned int flags), (ssl, flags))                              \
  X(int, SSL_shutdown, (SSL *ssl), (ssl))                                                         \
  X(int, SSL_write_ex, (SSL *ssl, const void *buf, size_t num, size_t *written),                  \
    (ssl, buf, num, written))                                                                     \
  X(const SSL_METHOD *, TLS_client_method, (void), ())                                            \
  X(int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM *param, const char *ip), (param, ip))  \
  X(const char *, X509_get_default_cert_dir, (void), ())                                          \
  X(const char *, X509_get_default_cert_file, (void), ())                                         \
  X(STACK_OF(X509_OBJECT) *, X509_STORE_get0_objects, (const X509_STORE *store), (store))        \
  X(const char *, X509_verify_cert_error_string, (long n), (n))

/* The resolved functions; all NULL until a load succeeds. */
struct ghl_openssl_table {
#define GHL_FIELD(ret, name, params, args) ret(*name) params;
#define GHL_VOID_FIELD(name, params, args) void(*name) params;
  GHL_OPENSSL_FUNCTIONS(GHL_FIELD, GHL_VOID_FIELD)
#undef GHL_FIELD
#undef GHL_VOID_FIELD
};

static struct ghl_openssl_table ghl_table;
static pthread_once_t ghl_once = PTHREAD_ONCE_INIT;
static int ghl_loaded;
static char ghl_error[512];

/* Copies dlerror()'s text (or `fallback`) into `reason`. */
static void ghl_reason(char *reason, size_t size, const char *fallback) {
  const char *text = dlerror();
  snprintf(reason, size, "%s", text != NULL ? text : fallback);
}

/* dlopen(soname, RTLD_NOW | RTLD_LOCAL), then dlsym of every listed function into `table`.
 * On failure returns 0 with dlerror's text in `reason`; the handle stays open (OpenSSL is
 * never unloaded: it registers atexit handlers). */
static int ghl_resolve(const char *soname, struct ghl_openssl_table *table, char *reason, size_t size) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    ghl_reason(reason, size, "dlopen failed");
    return 0;
  }
  void *symbol;
#define GHL_RESOLVE(name)                                      \
  symbol = dlsym(handle, #name);                               \
  if (symbol == NULL) {                                        \
    ghl_reason(reason, size, "undefined symbol " #name);       \
    return 0;                                                  \
  }                                                            \
  memcpy(&table->name, &symbol, sizeof symbol);
#define GHL_RESOLVE_X(ret, name, params, args) GHL_RESOLVE(name)
#define GHL_RESOLVE_V(name, params, args) GHL_RESOLVE(name)
  GHL_OPENSSL_FUNCTIONS(GHL_RESOLVE_X, GHL_RESOLVE_V)
#undef GHL_RESOLVE_X
#undef GHL_RESOLVE_V
#undef GHL_RESOLVE
  return 1;
}

static void ghl_load_once(void) {
  struct ghl_openssl_table table;
  memset(&table, 0, sizeof table);
  if (ghl_resolve(GHL_LIBSSL_SONAME, &table, ghl_error, sizeof ghl_error)) {
    ghl_table = table;
    ghl_loaded = 1;
    ghl_error[0] = '\0';
  }
}

int ghl_openssl_load(void) {
  pthread_once(&ghl_once, ghl_load_once);
  return ghl_loaded;
}

const char *ghl_openssl_load_error(void) {
  pthread_once(&ghl_once, ghl_load_once);
  return ghl_error;
}

int ghl_openssl_probe(const char *soname, char *reason, size_t reason_size) {
  struct ghl_openssl_table table;
  memset(&table, 0, sizeof table);
  if (reason_size > 0) reason[0] = '\0';
  return ghl_resolve(soname, &table, reason, reason_size);
}

/* An OpenSSL function was called without a successful ghl_openssl_load(): a bug in ghlogin. */
static void ghl_not_loaded(const char *name) {
  fprintf(stderr, "ghlogin: internal error: %s called before OpenSSL was loaded\n", name);
  abort();
}

#define GHL_HIDDEN __attribute__((visibility("hidden")))
#define GHL_FORWARD(ret, name, params, args)                   \
  GHL_HIDDEN ret name params {                                 \
    if (ghl_table.name == NULL) ghl_not_loaded(#name);         \
    return ghl_table.name args;                                \
  }
#define GHL_FORWARD_VOID(name, params, args)                   \
  GHL_HIDDEN void name params {                                \
    if (ghl_table.name == NULL) ghl_not_loaded(#name);         \
    ghl_table.name args;                                       \
  }
GHL_OPENSSL_FUNCTIONS(GHL_FORWARD, GHL_FORWARD_VOID)
