/* The Secret Service (org.freedesktop.secrets) through libsecret, loaded with dlopen on first
 * use: the binary does not link libsecret, GLib or GIO, so the file store's `token` and
 * `git-credential get` never map them. No libsecret headers are needed: secret_loader.c
 * declares the handful of prototypes it calls.
 *
 * Every function takes the item's attributes as two parallel arrays of NUL-terminated
 * strings. Outcomes are GHL_SECRET_*; on failure `message` receives the library's reason
 * (never a secret). */
#ifndef GHL_SECRET_SERVICE_H
#define GHL_SECRET_SERVICE_H

#include <stddef.h>

/* The call succeeded. */
#define GHL_SECRET_OK 0
/* No item matches the attributes. */
#define GHL_SECRET_NOT_FOUND 1
/* libsecret cannot be loaded, there is no session bus, or no Secret Service on it. */
#define GHL_SECRET_UNAVAILABLE 2
/* The collection is locked and was not unlocked (no prompt possible, or it was dismissed). */
#define GHL_SECRET_LOCKED 3
/* Any other failure. */
#define GHL_SECRET_FAILED 4

/* Loads libsecret once; returns GHL_SECRET_OK or GHL_SECRET_UNAVAILABLE. */
int ghl_secret_load(char *message, size_t message_size);

/* Looks up the secret of the item with these attributes; on GHL_SECRET_OK, *secret is a
 * malloc'ed NUL-terminated copy the caller wipes and frees with ghl_secret_free. */
int ghl_secret_lookup(const char *const *names, const char *const *values, int count, char **secret,
                      char *message, size_t message_size);

/* Creates or replaces the item with exactly these attributes in the default collection. */
int ghl_secret_store(const char *const *names, const char *const *values, int count, const char *label,
                     const char *secret, char *message, size_t message_size);

/* Deletes every item matching these attributes; none matching is GHL_SECRET_OK. */
int ghl_secret_clear(const char *const *names, const char *const *values, int count, char *message,
                     size_t message_size);

/* Overwrites and frees a secret from ghl_secret_lookup. */
void ghl_secret_free(char *secret);

#endif
