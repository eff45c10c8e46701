/* libsecret, loaded with dlopen on the first keyring access (see CSecretService.h).
 *
 * The prototypes below are libsecret's and GLib's, reduced to what is called here; every
 * pointer type ghlogin never looks into is `void *`. libsecret-1.so.0 brings GLib, GObject
 * and GIO as its own dependencies, so one dlopen maps all of them and dlsym on its handle
 * finds their functions too. */

#include "CSecretService.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GHL_LIBSECRET_SONAME "libsecret-1.so.0"

/* GLib's GError, whose layout is part of GLib's stable ABI. */
typedef struct {
  uint32_t domain;
  int code;
  char *message;
} ghl_gerror;

/* libsecret's SecretSchema (stable ABI since 0.7): a name, flags, up to 32 attributes. */
typedef struct {
  const char *name;
  int type; /* SECRET_SCHEMA_ATTRIBUTE_STRING = 0 */
} ghl_schema_attribute;

typedef struct {
  const char *name;
  int flags;
  ghl_schema_attribute attributes[32];
  int reserved;
  void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} ghl_schema;

#define GHL_SCHEMA_DONT_MATCH_NAME (1 << 1)
#define GHL_SEARCH_ALL (1 << 1)
/* SECRET_ERROR_IS_LOCKED in the "secret-error" domain. */
#define GHL_SECRET_ERROR_IS_LOCKED 2

/* The items ghlogin writes: every attribute it may name. Lookups match on the attributes
 * given, not on the schema name, so items stay readable whatever wrote them. */
static const ghl_schema ghl_token_schema = {
    .name = "org.ghlogin.Token",
    .flags = GHL_SCHEMA_DONT_MATCH_NAME,
    .attributes = {{"application", 0}, {"host", 0}, {"login", 0}, {"user_id", 0}, {"kind", 0}, {NULL, 0}},
};

static struct {
  void *(*g_hash_table_new)(unsigned (*hash)(const void *), int (*equal)(const void *, const void *));
  int (*g_hash_table_insert)(void *table, void *key, void *value);
  void (*g_hash_table_unref)(void *table);
  unsigned (*g_str_hash)(const void *);
  int (*g_str_equal)(const void *, const void *);
  const char *(*g_quark_to_string)(uint32_t quark);
  void (*g_error_free)(ghl_gerror *error);
  void (*g_list_free_full)(void *list, void (*free_func)(void *));
  void (*g_object_unref)(void *object);
  char *(*secret_password_lookupv_sync)(const ghl_schema *schema, void *attributes, void *cancellable,
                                        ghl_gerror **error);
  int (*secret_password_storev_sync)(const ghl_schema *schema, void *attributes, const char *collection,
                                     const char *label, const char *password, void *cancellable,
                                     ghl_gerror **error);
  int (*secret_password_clearv_sync)(const ghl_schema *schema, void *attributes, void *cancellable,
                                     ghl_gerror **error);
  void *(*secret_password_searchv_sync)(const ghl_schema *schema, void *attributes, int flags,
                                        void *cancellable, ghl_gerror **error);
  void (*secret_password_free)(char *password);
} ghl_secret;

static pthread_once_t ghl_secret_once = PTHREAD_ONCE_INIT;
static int ghl_secret_loaded;
static char ghl_secret_load_error[512];

static void ghl_secret_load_once(void) {
  void *handle = dlopen(GHL_LIBSECRET_SONAME, RTLD_LAZY | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(ghl_secret_load_error, sizeof ghl_secret_load_error, "%s", reason ? reason : GHL_LIBSECRET_SONAME);
    return;
  }
#define GHL_RESOLVE(name)                                                                               \
  do {                                                                                                  \
    *(void **)(&ghl_secret.name) = dlsym(handle, #name);                                                \
    if (ghl_secret.name == NULL) {                                                                      \
      snprintf(ghl_secret_load_error, sizeof ghl_secret_load_error, "%s has no %s", GHL_LIBSECRET_SONAME, \
               #name);                                                                                  \
      return;                                                                                           \
    }                                                                                                   \
  } while (0)
  GHL_RESOLVE(g_hash_table_new);
  GHL_RESOLVE(g_hash_table_insert);
  GHL_RESOLVE(g_hash_table_unref);
  GHL_RESOLVE(g_str_hash);
  GHL_RESOLVE(g_str_equal);
  GHL_RESOLVE(g_quark_to_string);
  GHL_RESOLVE(g_error_free);
  GHL_RESOLVE(g_list_free_full);
  GHL_RESOLVE(g_object_unref);
  GHL_RESOLVE(secret_password_lookupv_sync);
  GHL_RESOLVE(secret_password_storev_sync);
  GHL_RESOLVE(secret_password_clearv_sync);
  GHL_RESOLVE(secret_password_searchv_sync);
  GHL_RESOLVE(secret_password_free);
#undef GHL_RESOLVE
  ghl_secret_loaded = 1;
}

static void ghl_copy(char *message, size_t size, const char *text) {
  if (message != NULL && size > 0) snprintf(message, size, "%s", text ? text : "");
}

/* Turns a GError into an outcome and a message, and frees it. */
static int ghl_outcome(ghl_gerror *error, char *message, size_t size) {
  const char *domain = ghl_secret.g_quark_to_string(error->domain);
  int outcome = GHL_SECRET_FAILED;
  if (domain != NULL && strcmp(domain, "secret-error") == 0 && error->code == GHL_SECRET_ERROR_IS_LOCKED)
    outcome = GHL_SECRET_LOCKED;
  /* No session bus ("Could not connect", "Cannot autolaunch D-Bus"), no Secret Service on it
   * (ServiceUnknown), or the bus failing under us. */
  else if (domain != NULL && (strcmp(domain, "g-io-error-quark") == 0 || strcmp(domain, "g-dbus-error-quark") == 0))
    outcome = GHL_SECRET_UNAVAILABLE;
  ghl_copy(message, size, error->message);
  ghl_secret.g_error_free(error);
  return outcome;
}

int ghl_secret_load(char *message, size_t message_size) {
  pthread_once(&ghl_secret_once, ghl_secret_load_once);
  if (!ghl_secret_loaded) {
    ghl_copy(message, message_size, ghl_secret_load_error);
    return GHL_SECRET_UNAVAILABLE;
  }
  return GHL_SECRET_OK;
}

/* Loads libsecret. The connection to the service (session bus, Secret Service, an encrypted
 * session) is libsecret's own, made by the first call and kept for the process: connecting
 * here first would make libsecret open a second session (measured: two OpenSession key
 * exchanges, about a third more time than secret-tool). Failures to reach the service come
 * back as GIO or D-Bus errors, which ghl_outcome sorts as unavailable. */
static int ghl_connect(char *message, size_t size) { return ghl_secret_load(message, size); }

static void *ghl_attributes(const char *const *names, const char *const *values, int count) {
  void *table = ghl_secret.g_hash_table_new(ghl_secret.g_str_hash, ghl_secret.g_str_equal);
  for (int i = 0; i < count; i++) ghl_secret.g_hash_table_insert(table, (void *)names[i], (void *)values[i]);
  return table;
}

int ghl_secret_lookup(const char *const *names, const char *const *values, int count, char **secret,
                      char *message, size_t message_size) {
  *secret = NULL;
  int connected = ghl_connect(message, message_size);
  if (connected != GHL_SECRET_OK) return connected;
  void *attributes = ghl_attributes(names, values, count);
  ghl_gerror *error = NULL;
  char *found = ghl_secret.secret_password_lookupv_sync(&ghl_token_schema, attributes, NULL, &error);
  int outcome = GHL_SECRET_OK;
  if (error != NULL) {
    outcome = ghl_outcome(error, message, message_size);
  } else if (found == NULL) {
    /* Nothing unlocked matched. A locked item (the unlock prompt failed or was dismissed)
     * still shows in a search that does not unlock. */
    void *items = ghl_secret.secret_password_searchv_sync(&ghl_token_schema, attributes, GHL_SEARCH_ALL, NULL, &error);
    if (error != NULL) {
      outcome = ghl_outcome(error, message, message_size);
    } else if (items != NULL) {
      ghl_secret.g_list_free_full(items, ghl_secret.g_object_unref);
      ghl_copy(message, message_size, "the collection is locked");
      outcome = GHL_SECRET_LOCKED;
    } else {
      outcome = GHL_SECRET_NOT_FOUND;
    }
  } else {
    *secret = strdup(found);
    ghl_secret.secret_password_free(found);
    if (*secret == NULL) {
      ghl_copy(message, message_size, "out of memory");
      outcome = GHL_SECRET_FAILED;
    }
  }
  ghl_secret.g_hash_table_unref(attributes);
  return outcome;
}

int ghl_secret_store(const char *const *names, const char *const *values, int count, const char *label,
                     const char *secret, char *message, size_t message_size) {
  int connected = ghl_connect(message, message_size);
  if (connected != GHL_SECRET_OK) return connected;
  void *attributes = ghl_attributes(names, values, count);
  ghl_gerror *error = NULL;
  int stored =
      ghl_secret.secret_password_storev_sync(&ghl_token_schema, attributes, "default", label, secret, NULL, &error);
  ghl_secret.g_hash_table_unref(attributes);
  if (error != NULL) return ghl_outcome(error, message, message_size);
  if (!stored) {
    ghl_copy(message, message_size, "the item was not stored");
    return GHL_SECRET_FAILED;
  }
  return GHL_SECRET_OK;
}

int ghl_secret_clear(const char *const *names, const char *const *values, int count, char *message,
                     size_t message_size) {
  int connected = ghl_connect(message, message_size);
  if (connected != GHL_SECRET_OK) return connected;
  void *attributes = ghl_attributes(names, values, count);
  ghl_gerror *error = NULL;
  ghl_secret.secret_password_clearv_sync(&ghl_token_schema, attributes, NULL, &error);
  if (error != NULL) {
    ghl_secret.g_hash_table_unref(attributes);
    return ghl_outcome(error, message, message_size);
  }
  /* A locked item is silently left in place: look for what is still there. */
  void *left = ghl_secret.secret_password_searchv_sync(&ghl_token_schema, attributes, GHL_SEARCH_ALL, NULL, &error);
  ghl_secret.g_hash_table_unref(attributes);
  if (error != NULL) return ghl_outcome(error, message, message_size);
  if (left != NULL) {
    ghl_secret.g_list_free_full(left, ghl_secret.g_object_unref);
    ghl_copy(message, message_size, "the collection is locked");
    return GHL_SECRET_LOCKED;
  }
  return GHL_SECRET_OK;
}

void ghl_secret_free(char *secret) {
  if (secret == NULL) return;
  volatile char *p = secret;
  while (*p) *p++ = 0;
  free(secret);
}
