// The math library, loaded on first use.
//
// The static Swift standard library references C math functions the hot paths never call, so
// mapping libm at start-up would cost every `token` run; the stubs also keep the binary off math
// symbol versions newer than glibc 2.34. Linker/libm.so hides the real libm from the release
// link; each function in libm_functions.h is a stub that opens libm.so.6 on its first call and
// forwards, except the five that round a Double, computed here. `LibmStubTests` checks every one
// against the real libm. Release builds only (GHLOGIN_STATIC_STARTUP), like argv.c; the binary
// exports none of these names, so libraries loaded later still bind to libm.
#ifdef GHLOGIN_STATIC_STARTUP

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libm_functions.h"

static void *libmHandle;

static void fail(const char *what, const char *detail) {
  const char *parts[] = {"ghlogin: cannot load the math library (", what, "): ", detail ? detail : "unknown", "\n"};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    (void)!write(2, parts[i], strlen(parts[i]));
  }
  abort();
}

// The real function, looked up once. Two threads racing here store the same address.
static void *resolve(void **slot, const char *name) {
  void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (function) return function;
  void *handle = __atomic_load_n(&libmHandle, __ATOMIC_ACQUIRE);
  if (!handle) {
    handle = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail("libm.so.6", dlerror());
    __atomic_store_n(&libmHandle, handle, __ATOMIC_RELEASE);
  }
  function = dlsym(handle, name);
  if (!function) fail(name, dlerror());
  __atomic_store_n(slot, function, __ATOMIC_RELEASE);
  return function;
}

#define GHL_DEFINE_STUB(kind, name)                                                          \
  static void *slot_##name;                                                                  \
  GHL_LIBM_T_##kind name GHL_LIBM_P_##kind {                                                 \
    GHL_LIBM_T_##kind(*real) GHL_LIBM_P_##kind =                                             \
        (GHL_LIBM_T_##kind(*) GHL_LIBM_P_##kind)resolve(&slot_##name, #name);                \
    return real GHL_LIBM_A_##kind;                                                           \
  }

GHL_LIBM_FUNCTIONS(GHL_DEFINE_STUB)

// Computed here, not loaded: the hot paths round Doubles. Dictionary and Set call `ceil` each
// time their storage grows (`(Double(capacity) / maxLoadFactor).rounded(.up)`), and a token's
// expiry goes through `rounded(.down)`, so `token` and the credential helpers would load libm
// on most runs. Swift's `rounded(_:)` becomes these five calls (`.toNearestOrEven` is `rint`).
// Every result is exact, the same bits as libm's for every input in the default rounding mode
// (libm_check.c compares them on edge cases and random bit patterns). Baseline x86-64 has no
// rounding instruction (SSE4.1), so they truncate through an integer, exact for |x| < 2^52;
// every double at or above 2^52, and infinity, is already an integer. A NaN comes back quiet,
// as from libm; a zero result keeps the input's sign (ceil(-0.5) is -0.0).
static double roundedDown(double x) { return (double)(long long)x; }  // toward zero, |x| < 2^52

// What each of the five returns unchanged: a NaN, made quiet (x + x, as libm does), and any
// double that is already an integer.
#define GHL_INTEGER_OR_NAN(x) \
  if ((x) != (x)) return (x) + (x);    \
  if (!(__builtin_fabs(x) < 0x1p52)) return (x);

double trunc(double x) {
  GHL_INTEGER_OR_NAN(x)
  return __builtin_copysign(roundedDown(x), x);
}

double ceil(double x) {
  GHL_INTEGER_OR_NAN(x)
  double t = roundedDown(x);
  return __builtin_copysign(t < x ? t + 1.0 : t, x);
}

double floor(double x) {
  GHL_INTEGER_OR_NAN(x)
  double t = roundedDown(x);
  return __builtin_copysign(t > x ? t - 1.0 : t, x);
}

// Halfway cases away from zero. x - t is the fraction, exact.
double round(double x) {
  GHL_INTEGER_OR_NAN(x)
  double t = roundedDown(x);
  if (__builtin_fabs(x - t) >= 0.5) t += __builtin_copysign(1.0, x);
  return __builtin_copysign(t, x);
}

// Halfway cases to even: adding and removing 2^52 leaves the integer the rounding mode picks.
double rint(double x) {
  GHL_INTEGER_OR_NAN(x)
  volatile double shifted = __builtin_fabs(x) + 0x1p52;
  return __builtin_copysign(shifted - 0x1p52, x);
}

#endif
