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
/* More than one item matches (the message holds how many, in decimal): none is chosen. */
#define GHL_SECRET_AMBIGUOUS 5
/* libsecret itself could not be loaded (not installed, or a library without its functions). */
#define GHL_SECRET_NO_LIBRARY 6

/* Loads libsecret once; returns GHL_SECRET_OK or GHL_SECRET_NO_LIBRARY. */
int ghl_secret_load(char *message, size_t message_size);

/* Items are looked up, stored and deleted in one collection only, the one the service's
 * "default" alias names; an item matches when its attributes include every one given (the
 * service's own matching, as secret-tool's). Items of other collections are never read,
 * chosen or deleted. */

/* Reaches the Secret Service and makes sure its default collection is unlocked, asking the
 * service to unlock it (its prompt) when it is locked: GHL_SECRET_OK, UNAVAILABLE or LOCKED. */
int ghl_secret_check(char *message, size_t message_size);

/* Looks up the secret of the one item with these attributes, leaving out items that carry the
 * attribute `absent` (NULL: none left out; how an item written with five attributes is found
 * beside newer ones that have a sixth); none is GHL_SECRET_NOT_FOUND and two or more
 * GHL_SECRET_AMBIGUOUS. On GHL_SECRET_OK, *secret is a malloc'ed NUL-terminated copy the caller
 * wipes and frees with ghl_secret_free. */
int ghl_secret_lookup(const char *const *names, const char *const *values, int count, const char *absent,
                      char **secret, char *message, size_t message_size);

/* Creates or replaces the item with exactly these attributes in the default collection. */
int ghl_secret_store(const char *const *names, const char *const *values, int count, const char *label,
                     const char *secret, char *message, size_t message_size);

/* Deletes the items matching these attributes (and not carrying `absent`, as for a lookup) that
 * hold exactly `secret` (what ghlogin read from them); items holding anything else are left.
 * None matching is GHL_SECRET_OK. */
int ghl_secret_clear(const char *const *names, const char *const *values, int count, const char *absent,
                     const char *secret, char *message, size_t message_size);

/* Every call below ends within `call_seconds` (an unlock prompt, when `may_prompt`, within
 * `prompt_seconds` more); without `may_prompt` the service is never asked to prompt and a
 * locked collection is GHL_SECRET_LOCKED at once. Defaults: 5 s, 120 s, prompts allowed. */
void ghl_secret_set_policy(double call_seconds, double prompt_seconds, int may_prompt);

/* Overwrites and frees a secret from ghl_secret_lookup. */
void ghl_secret_free(char *secret);

#endif
