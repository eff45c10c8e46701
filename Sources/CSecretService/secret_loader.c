/* libsecret, loaded with dlopen on the first keyring access (see CSecretService.h).
 *
 * The prototypes below are libsecret's and GLib's, reduced to what is called here; every
 * pointer type ghlogin never looks into is `void *`. libsecret-1.so.0 brings GLib, GObject
 * and GIO as its own dependencies, so one dlopen maps all of them and dlsym on its handle
 * finds their functions too. */

#include "CSecretService.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
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
#define GHL_SERVICE_OPEN_SESSION (1 << 1)
/* The collection ghlogin writes to and reads from: the one the service calls "default". */
#define GHL_COLLECTION_ALIAS "default"
/* The most items one lookup considers (more is refused as ambiguous all the same). */
#define GHL_MAX_MATCHES 16
/* SECRET_ERROR_IS_LOCKED in the "secret-error" domain. */
#define GHL_SECRET_ERROR_IS_LOCKED 2

/* The items ghlogin writes: every attribute it may name (`client_id` since issue 33: the app
 * that issued the login, "" for a token stored as given; items written before have the other
 * five; an app's private key has `application`, `kind` and `app`; a narrowed token a login's
 * `application`, `host`, `user_id`, `client_id`, `kind`, and `narrowing` and `record`). Lookups
 * match on the attributes given (all of them, R101), not on the schema name, so items stay
 * readable whatever wrote them; they search the default collection only, the one items are
 * stored in. Items are stored without the schema's name (``ghl_store``). */
static const ghl_schema ghl_token_schema = {
    .name = "org.ghlogin.Token",
    .flags = GHL_SCHEMA_DONT_MATCH_NAME,
    .attributes = {{"application", 0}, {"host", 0}, {"login", 0}, {"user_id", 0}, {"kind", 0}, {"client_id", 0},
                   /* `kind` app-key items (issue 34): the GitHub App whose private key it is */
                   {"app", 0},
                   /* `kind` narrowed-token items (issue 34): the narrowing and the record's id */
                   {"narrowing", 0}, {"record", 0},
                   {NULL, 0}},
};

static struct {
  void *(*g_hash_table_new)(unsigned (*hash)(const void *), int (*equal)(const void *, const void *));
  int (*g_hash_table_insert)(void *table, void *key, void *value);
  void (*g_hash_table_unref)(void *table);
  unsigned (*g_str_hash)(const void *);
  int (*g_str_equal)(const void *, const void *);
  const char *(*g_quark_to_string)(uint32_t quark);
  void (*g_error_free)(ghl_gerror *error);
  void (*g_free)(void *memory);
  void (*g_strfreev)(char **strings);
  void (*g_object_unref)(void *object);
  void *(*g_cancellable_new)(void);
  void *(*secret_collection_new_for_dbus_path_sync)(void *service, const char *path, int flags, void *cancellable,
                                                    ghl_gerror **error);
  int (*secret_collection_get_locked)(void *collection);
  void (*g_cancellable_cancel)(void *cancellable);
  int (*secret_service_store_sync)(void *service, const ghl_schema *schema, void *attributes, const char *collection,
                                   const char *label, void *value, void *cancellable, ghl_gerror **error);
  void *(*secret_value_new)(const char *secret, long length, const char *content_type);
  void *(*secret_service_get_sync)(int flags, void *cancellable, ghl_gerror **error);
  char *(*secret_service_read_alias_dbus_path_sync)(void *service, const char *alias, void *cancellable,
                                                    ghl_gerror **error);
  int (*secret_service_search_for_dbus_paths_sync)(void *service, const ghl_schema *schema, void *attributes,
                                                   void *cancellable, char ***unlocked, char ***locked,
                                                   ghl_gerror **error);
  int (*secret_service_unlock_dbus_paths_sync)(void *service, const char **paths, void *cancellable,
                                               char ***unlocked, ghl_gerror **error);
  void *(*secret_service_get_secret_for_dbus_path_sync)(void *service, const char *item_path, void *cancellable,
                                                        ghl_gerror **error);
  int (*secret_service_delete_item_dbus_path_sync)(void *service, const char *item_path, void *cancellable,
                                                   ghl_gerror **error);
  const char *(*secret_value_get)(void *value, size_t *length);
  void *(*secret_item_new_for_dbus_path_sync)(void *service, const char *path, int flags, void *cancellable,
                                              ghl_gerror **error);
  void *(*secret_item_get_attributes)(void *item);
  int (*g_hash_table_contains)(void *table, const void *key);
  void (*secret_value_unref)(void *value);
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
  GHL_RESOLVE(g_free);
  GHL_RESOLVE(g_strfreev);
  GHL_RESOLVE(g_object_unref);
  GHL_RESOLVE(g_cancellable_new);
  GHL_RESOLVE(g_cancellable_cancel);
  GHL_RESOLVE(secret_collection_new_for_dbus_path_sync);
  GHL_RESOLVE(secret_collection_get_locked);
  GHL_RESOLVE(secret_service_store_sync);
  GHL_RESOLVE(secret_value_new);
  GHL_RESOLVE(secret_service_get_sync);
  GHL_RESOLVE(secret_service_read_alias_dbus_path_sync);
  GHL_RESOLVE(secret_service_search_for_dbus_paths_sync);
  GHL_RESOLVE(secret_service_unlock_dbus_paths_sync);
  GHL_RESOLVE(secret_service_get_secret_for_dbus_path_sync);
  GHL_RESOLVE(secret_service_delete_item_dbus_path_sync);
  GHL_RESOLVE(secret_value_get);
  GHL_RESOLVE(secret_value_unref);
  GHL_RESOLVE(secret_item_new_for_dbus_path_sync);
  GHL_RESOLVE(secret_item_get_attributes);
  GHL_RESOLVE(g_hash_table_contains);
#undef GHL_RESOLVE
  ghl_secret_loaded = 1;
}

static void ghl_copy(char *message, size_t size, const char *text) {
  if (message != NULL && size > 0) snprintf(message, size, "%s", text ? text : "");
}

/* Deadlines (issue 29 §5): every keyring operation (lookup, check, store, clear) runs under a
 * GCancellable that a watchdog thread cancels once its time is up, so a service that does not
 * answer, or an unlock prompt nobody answers, ends the call instead of waiting in poll for
 * ever. Without prompts (the helpers, and commands whose stderr is not a terminal), a locked
 * collection is GHL_SECRET_LOCKED at once and the service is never asked to show one. */
static double ghl_call_seconds = 5;
static double ghl_prompt_seconds = 120;
static int ghl_may_prompt = 1;

void ghl_secret_set_policy(double call_seconds, double prompt_seconds, int may_prompt) {
  ghl_call_seconds = call_seconds;
  ghl_prompt_seconds = prompt_seconds;
  ghl_may_prompt = may_prompt;
}

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  struct timespec deadline; /* CLOCK_MONOTONIC */
  int done, fired, prompting, running;
  void *cancellable;
  pthread_t thread;
} ghl_watch;

/* The current operation's watch (per thread: a library caller may use the keyring from several). */
static __thread ghl_watch *ghl_current;

static void ghl_deadline_in(struct timespec *deadline, double seconds) {
  clock_gettime(CLOCK_MONOTONIC, deadline);
  long long nanos = (long long)(seconds * 1e9) + deadline->tv_nsec;
  deadline->tv_sec += (time_t)(nanos / 1000000000LL);
  deadline->tv_nsec = (long)(nanos % 1000000000LL);
}

static void *ghl_watch_main(void *argument) {
  ghl_watch *watch = argument;
  pthread_mutex_lock(&watch->mutex);
  while (!watch->done) {
    int waited = pthread_cond_timedwait(&watch->wake, &watch->mutex, &watch->deadline);
    if (waited == ETIMEDOUT && !watch->done) {
      watch->fired = 1;
      ghl_secret.g_cancellable_cancel(watch->cancellable);
      break;
    }
  }
  pthread_mutex_unlock(&watch->mutex);
  return NULL;
}

/* Starts the watch of one operation (libsecret loaded); without a thread, calls run unwatched. */
static void ghl_watch_start(ghl_watch *watch) {
  memset(watch, 0, sizeof *watch);
  pthread_mutex_init(&watch->mutex, NULL);
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&watch->wake, &attributes);
  pthread_condattr_destroy(&attributes);
  ghl_deadline_in(&watch->deadline, ghl_call_seconds);
  watch->cancellable = ghl_secret.g_cancellable_new();
  watch->running = watch->cancellable != NULL && pthread_create(&watch->thread, NULL, ghl_watch_main, watch) == 0;
  ghl_current = watch;
}

/* Gives the watched operation the prompt's time, from now, while an unlock prompt may show. */
static void ghl_watch_prompting(void) {
  ghl_watch *watch = ghl_current;
  if (watch == NULL || !watch->running) return;
  pthread_mutex_lock(&watch->mutex);
  watch->prompting = 1;
  ghl_deadline_in(&watch->deadline, ghl_prompt_seconds);
  pthread_cond_signal(&watch->wake);
  pthread_mutex_unlock(&watch->mutex);
}

/* Ends the watch; a call its deadline cut short becomes LOCKED (during a prompt) or
 * UNAVAILABLE (the service did not answer), with a message saying so. */
static int ghl_watch_end(ghl_watch *watch, int outcome, char *message, size_t size) {
  if (watch->running) {
    pthread_mutex_lock(&watch->mutex);
    watch->done = 1;
    pthread_cond_signal(&watch->wake);
    pthread_mutex_unlock(&watch->mutex);
    pthread_join(watch->thread, NULL);
  }
  ghl_current = NULL;
  if (watch->cancellable != NULL) ghl_secret.g_object_unref(watch->cancellable);
  pthread_cond_destroy(&watch->wake);
  pthread_mutex_destroy(&watch->mutex);
  if (watch->fired && outcome != GHL_SECRET_OK) {
    if (watch->prompting) {
      snprintf(message, size, "no answer to the unlock prompt within %.0f s", ghl_prompt_seconds);
      return GHL_SECRET_LOCKED;
    }
    snprintf(message, size, "the Secret Service did not answer within %.0f s", ghl_call_seconds);
    return GHL_SECRET_UNAVAILABLE;
  }
  return outcome;
}

/* The cancellable of the current operation (NULL when none is watched). */
static void *ghl_cancellable(void) { return ghl_current != NULL ? ghl_current->cancellable : NULL; }

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
    return GHL_SECRET_NO_LIBRARY;
  }
  return GHL_SECRET_OK;
}

/* Loads libsecret. The connection to the service (session bus, Secret Service, an encrypted
 * session) is libsecret's own shared proxy (secret_service_get_sync), made by the first call
 * and kept for the process, which every call uses (``ghl_service``): a connection of our own
 * would make libsecret open a second session (two OpenSession key exchanges, slower than
 * secret-tool). Failures to reach the service come back as GIO or D-Bus errors, which
 * ghl_outcome sorts as unavailable. */
static int ghl_connect(char *message, size_t size) { return ghl_secret_load(message, size); }

static void *ghl_attributes(const char *const *names, const char *const *values, int count) {
  void *table = ghl_secret.g_hash_table_new(ghl_secret.g_str_hash, ghl_secret.g_str_equal);
  for (int i = 0; i < count; i++) ghl_secret.g_hash_table_insert(table, (void *)names[i], (void *)values[i]);
  return table;
}

/* The service: libsecret's shared proxy, with its encrypted session (g_object_unref it). */
static int ghl_service(void **service, char *message, size_t size) {
  *service = NULL;
  int connected = ghl_connect(message, size);
  if (connected != GHL_SECRET_OK) return connected;
  ghl_gerror *error = NULL;
  *service = ghl_secret.secret_service_get_sync(GHL_SERVICE_OPEN_SESSION, ghl_cancellable(), &error);
  if (error != NULL || *service == NULL) {
    if (*service != NULL) ghl_secret.g_object_unref(*service);
    *service = NULL;
    if (error == NULL) {
      ghl_copy(message, size, "no Secret Service");
      return GHL_SECRET_UNAVAILABLE;
    }
    return ghl_outcome(error, message, size);
  }
  return GHL_SECRET_OK;
}

/* The service (``ghl_service``) and the object path of the collection the "default" alias names
 * (g_free it), or *collection NULL when it names none. */
static int ghl_collection(void **service, char **collection, char *message, size_t size) {
  *collection = NULL;
  int outcome = ghl_service(service, message, size);
  if (outcome != GHL_SECRET_OK) return outcome;
  ghl_gerror *error = NULL;
  *collection = ghl_secret.secret_service_read_alias_dbus_path_sync(*service, GHL_COLLECTION_ALIAS, ghl_cancellable(),
                                                                    &error);
  if (error != NULL) {
    ghl_secret.g_free(*collection);
    *collection = NULL;
    ghl_secret.g_object_unref(*service);
    *service = NULL;
    return ghl_outcome(error, message, size);
  }
  return GHL_SECRET_OK;
}

/* Unlocks `paths` (NULL-terminated) with the service's prompt; GHL_SECRET_LOCKED when fewer
 * than `count` objects were unlocked (the prompt failed, was dismissed or could not be shown). */
static int ghl_unlock(void *service, const char **paths, int count, char *message, size_t size) {
  ghl_gerror *error = NULL;
  if (!ghl_may_prompt) {
    /* Never asks the service to prompt: what the caller found locked stays locked. */
    ghl_copy(message, size, "the collection is locked, and this command does not wait on an unlock prompt");
    return GHL_SECRET_LOCKED;
  }
  ghl_watch_prompting();
  int unlocked = ghl_secret.secret_service_unlock_dbus_paths_sync(service, paths, ghl_cancellable(), NULL, &error);
  if (error != NULL) {
    int outcome = ghl_outcome(error, message, size);
    /* A prompt that cannot be shown is the locked case, not a missing service. */
    return outcome == GHL_SECRET_UNAVAILABLE ? outcome : GHL_SECRET_LOCKED;
  }
  if (unlocked < count) {
    ghl_copy(message, size, "the collection is locked");
    return GHL_SECRET_LOCKED;
  }
  return GHL_SECRET_OK;
}

/* What one search found: the object paths of the matching items in the default collection. */
typedef struct {
  void *service;
  char *collection;
  char **unlocked, **locked;
  const char *paths[GHL_MAX_MATCHES + 1];
  int count;     /* how many matched (may exceed GHL_MAX_MATCHES; paths holds the first ones) */
  int anyLocked; /* whether one of them was locked when found */
} ghl_matches;

static void ghl_matches_free(ghl_matches *found) {
  if (found->unlocked != NULL) ghl_secret.g_strfreev(found->unlocked);
  if (found->locked != NULL) ghl_secret.g_strfreev(found->locked);
  /* NULL also when libsecret could not be loaded: then g_free itself is NULL. */
  if (found->collection != NULL) ghl_secret.g_free(found->collection);
  if (found->service != NULL) ghl_secret.g_object_unref(found->service);
}

/* Whether the item at `path` carries the attribute `name`. An item whose attributes cannot be
 * read counts as not carrying it: it is kept, so a doubt is an ambiguity, never a choice. */
static int ghl_item_has(void *service, const char *path, const char *name) {
  ghl_gerror *error = NULL;
  void *item = ghl_secret.secret_item_new_for_dbus_path_sync(service, path, 0, ghl_cancellable(), &error);
  if (error != NULL) ghl_secret.g_error_free(error);
  if (item == NULL) return 0;
  void *attributes = ghl_secret.secret_item_get_attributes(item);
  int has = attributes != NULL && ghl_secret.g_hash_table_contains(attributes, name);
  if (attributes != NULL) ghl_secret.g_hash_table_unref(attributes);
  ghl_secret.g_object_unref(item);
  return has;
}

/* Keeps the paths of `paths` in the default collection, leaving out items that carry the
 * attribute `absent` (when not NULL): a lookup of an item written with five attributes never
 * finds a newer item that has all five and a sixth (R101). */
static void ghl_keep(ghl_matches *found, char **paths, int locked, const char *absent) {
  size_t prefix = strlen(found->collection);
  for (; paths != NULL && *paths != NULL; paths++) {
    /* Item paths are COLLECTION/ITEM (the Secret Service API's object paths). */
    if (strncmp(*paths, found->collection, prefix) != 0 || (*paths)[prefix] != '/') continue;
    if (strchr(*paths + prefix + 1, '/') != NULL) continue;
    if (absent != NULL && ghl_item_has(found->service, *paths, absent)) continue;
    if (found->count < GHL_MAX_MATCHES) found->paths[found->count] = *paths;
    found->count++;
    if (locked) found->anyLocked = 1;
  }
}

/* Every item of the default collection whose attributes include all of these (the service
 * matches; other collections are never considered), unlocked through the service's prompt
 * when one is locked. Free `found` with ghl_matches_free whatever the outcome. */
static int ghl_search(const char *const *names, const char *const *values, int count, const char *absent,
                      ghl_matches *found, char *message, size_t size) {
  memset(found, 0, sizeof *found);
  int outcome = ghl_collection(&found->service, &found->collection, message, size);
  if (outcome != GHL_SECRET_OK || found->collection == NULL) return outcome;
  void *attributes = ghl_attributes(names, values, count);
  /* A second pass after an unlock: the service may have unlocked the whole collection rather
   * than the items it was given, so what is still locked is read from a new search. */
  for (int pass = 0; pass < 2 && outcome == GHL_SECRET_OK; pass++) {
    if (found->unlocked != NULL) ghl_secret.g_strfreev(found->unlocked);
    if (found->locked != NULL) ghl_secret.g_strfreev(found->locked);
    found->unlocked = found->locked = NULL;
    found->count = found->anyLocked = 0;
    ghl_gerror *error = NULL;
    ghl_secret.secret_service_search_for_dbus_paths_sync(found->service, &ghl_token_schema, attributes,
                                                         ghl_cancellable(), &found->unlocked, &found->locked,
                                                         &error);
    if (error != NULL) {
      outcome = ghl_outcome(error, message, size);
    } else {
      ghl_keep(found, found->unlocked, 0, absent);
      ghl_keep(found, found->locked, 1, absent);
      if (!found->anyLocked) break;
      if (pass == 0) {
        int listed = found->count < GHL_MAX_MATCHES ? found->count : GHL_MAX_MATCHES;
        found->paths[listed] = NULL;
        outcome = ghl_unlock(found->service, found->paths, 0, message, size);
      } else {
        ghl_copy(message, size, "the collection is locked");
        outcome = GHL_SECRET_LOCKED;
      }
    }
  }
  ghl_secret.g_hash_table_unref(attributes);
  return outcome;
}

/* A malloc'ed NUL-terminated copy of the secret of the item at `path`, or NULL: when the
 * service fails (*outcome then says how), when it gives no secret (the item was locked after
 * the search found it unlocked: GHL_SECRET_LOCKED), or the secret is no text (a NUL byte: never
 * a token; *outcome is left as it was). */
static char *ghl_item_secret(void *service, const char *path, int *outcome, char *message, size_t size) {
  ghl_gerror *error = NULL;
  void *value = ghl_secret.secret_service_get_secret_for_dbus_path_sync(service, path, ghl_cancellable(), &error);
  if (error != NULL) {
    *outcome = ghl_outcome(error, message, size);
    return NULL;
  }
  if (value == NULL) {
    /* GetSecrets leaves out the items that are locked: the collection was locked in between. */
    ghl_copy(message, size, "the collection is locked");
    *outcome = GHL_SECRET_LOCKED;
    return NULL;
  }
  char *copy = NULL;
  size_t length = 0;
  const char *bytes = ghl_secret.secret_value_get(value, &length);
  if (bytes != NULL && memchr(bytes, 0, length) == NULL && (copy = malloc(length + 1)) != NULL) {
    memcpy(copy, bytes, length);
    copy[length] = 0;
  }
  ghl_secret.secret_value_unref(value);
  return copy;
}

static int ghl_lookup(const char *const *names, const char *const *values, int count, const char *absent,
                      char **secret, char *message, size_t message_size) {
  *secret = NULL;
  ghl_matches found;
  int outcome = ghl_search(names, values, count, absent, &found, message, message_size);
  if (outcome == GHL_SECRET_OK) {
    if (found.count == 0) {
      outcome = GHL_SECRET_NOT_FOUND;
    } else if (found.count > 1) {
      /* Never pick one: the other may be anyone's. */
      snprintf(message, message_size, "%d", found.count);
      outcome = GHL_SECRET_AMBIGUOUS;
    } else {
      *secret = ghl_item_secret(found.service, found.paths[0], &outcome, message, message_size);
      if (*secret == NULL && outcome == GHL_SECRET_OK) {
        ghl_copy(message, message_size, "the item does not hold text");
        outcome = GHL_SECRET_FAILED;
      }
    }
  }
  ghl_matches_free(&found);
  return outcome;
}

static int ghl_check(char *message, size_t message_size) {
  void *service;
  char *collection;
  int outcome = ghl_collection(&service, &collection, message, message_size);
  if (outcome == GHL_SECRET_OK && collection != NULL && !ghl_may_prompt) {
    /* Without a prompt: the collection's Locked property says. */
    ghl_gerror *error = NULL;
    void *object =
        ghl_secret.secret_collection_new_for_dbus_path_sync(service, collection, 0, ghl_cancellable(), &error);
    if (error != NULL) {
      if (object != NULL) ghl_secret.g_object_unref(object);
      outcome = ghl_outcome(error, message, message_size);
    } else {
      if (object != NULL && ghl_secret.secret_collection_get_locked(object)) {
        ghl_copy(message, message_size, "the collection is locked, and this command does not wait on an unlock prompt");
        outcome = GHL_SECRET_LOCKED;
      }
      if (object != NULL) ghl_secret.g_object_unref(object);
    }
  } else if (outcome == GHL_SECRET_OK && collection != NULL) {
    /* Unlock answers at once for an unlocked collection, and prompts for a locked one. */
    const char *paths[] = {collection, NULL};
    outcome = ghl_unlock(service, paths, 1, message, message_size);
  }
  if (collection != NULL) ghl_secret.g_free(collection);
  if (service != NULL) ghl_secret.g_object_unref(service);
  return outcome;
}

/* Stores the item in the default collection, replacing the one with the same attributes. With
 * no schema: libsecret then adds no `xdg:schema` to the attributes, so the service's replace
 * matches an item on ghlogin's attributes alone, as every lookup does (R101). With the schema's
 * name among them, gnome-keyring replaced only an item of that schema: an item another program
 * had rewritten (secret-tool, seahorse) was, once the daemon reloaded its file, left beside the
 * new one, and every command after found two and refused to choose. */
static int ghl_store(const char *const *names, const char *const *values, int count, const char *label,
                     const char *secret, char *message, size_t message_size) {
  void *service;
  int outcome = ghl_service(&service, message, message_size);
  if (outcome != GHL_SECRET_OK) return outcome;
  void *attributes = ghl_attributes(names, values, count);
  void *value = ghl_secret.secret_value_new(secret, -1, "text/plain");
  ghl_gerror *error = NULL;
  int stored = ghl_secret.secret_service_store_sync(service, NULL, attributes, GHL_COLLECTION_ALIAS, label, value,
                                                    ghl_cancellable(), &error);
  ghl_secret.secret_value_unref(value);
  ghl_secret.g_hash_table_unref(attributes);
  ghl_secret.g_object_unref(service);
  if (error != NULL) return ghl_outcome(error, message, message_size);
  if (!stored) {
    ghl_copy(message, message_size, "the item was not stored");
    return GHL_SECRET_FAILED;
  }
  return GHL_SECRET_OK;
}

static int ghl_clear(const char *const *names, const char *const *values, int count, const char *absent,
                     const char *secret, char *message, size_t message_size) {
  ghl_matches found;
  int outcome = ghl_search(names, values, count, absent, &found, message, message_size);
  int listed = found.count < GHL_MAX_MATCHES ? found.count : GHL_MAX_MATCHES;
  for (int i = 0; i < listed && outcome == GHL_SECRET_OK; i++) {
    /* Only an item that holds what ghlogin read: anything else is not ours to remove. */
    char *held = ghl_item_secret(found.service, found.paths[i], &outcome, message, message_size);
    int ours = held != NULL && strcmp(held, secret) == 0;
    ghl_secret_free(held);
    if (!ours) continue;
    ghl_gerror *error = NULL;
    ghl_secret.secret_service_delete_item_dbus_path_sync(found.service, found.paths[i], ghl_cancellable(), &error);
    if (error != NULL) outcome = ghl_outcome(error, message, message_size);
  }
  ghl_matches_free(&found);
  return outcome;
}

/* The public calls: each one operation under its watch. */
int ghl_secret_lookup(const char *const *names, const char *const *values, int count, const char *absent,
                      char **secret, char *message, size_t message_size) {
  *secret = NULL;
  int loaded = ghl_secret_load(message, message_size);
  if (loaded != GHL_SECRET_OK) return loaded;
  ghl_watch watch;
  ghl_watch_start(&watch);
  int outcome = ghl_lookup(names, values, count, absent, secret, message, message_size);
  outcome = ghl_watch_end(&watch, outcome, message, message_size);
  if (outcome != GHL_SECRET_OK && *secret != NULL) {
    ghl_secret_free(*secret);
    *secret = NULL;
  }
  return outcome;
}

int ghl_secret_check(char *message, size_t message_size) {
  int loaded = ghl_secret_load(message, message_size);
  if (loaded != GHL_SECRET_OK) return loaded;
  ghl_watch watch;
  ghl_watch_start(&watch);
  return ghl_watch_end(&watch, ghl_check(message, message_size), message, message_size);
}

int ghl_secret_store(const char *const *names, const char *const *values, int count, const char *label,
                     const char *secret, char *message, size_t message_size) {
  int loaded = ghl_secret_load(message, message_size);
  if (loaded != GHL_SECRET_OK) return loaded;
  ghl_watch watch;
  ghl_watch_start(&watch);
  int outcome = ghl_store(names, values, count, label, secret, message, message_size);
  return ghl_watch_end(&watch, outcome, message, message_size);
}

int ghl_secret_clear(const char *const *names, const char *const *values, int count, const char *absent,
                     const char *secret, char *message, size_t message_size) {
  int loaded = ghl_secret_load(message, message_size);
  if (loaded != GHL_SECRET_OK) return loaded;
  ghl_watch watch;
  ghl_watch_start(&watch);
  int outcome = ghl_clear(names, values, count, absent, secret, message, message_size);
  return ghl_watch_end(&watch, outcome, message, message_size);
}

void ghl_secret_free(char *secret) {
  if (secret == NULL) return;
  volatile char *p = secret;
  while (*p) *p++ = 0;
  free(secret);
}
