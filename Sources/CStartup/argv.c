// The command line for Swift's `CommandLine`, without reading /proc/self/maps.
//
// The runtime's CommandLine.cpp finds argv before main by parsing /proc/self/maps with sscanf.
// glibc hands argc and argv to every `.init_array` function, so this file keeps them from there
// and defines the two entry points CommandLine.cpp would: the linker never pulls it in.
// Release builds only (GHLOGIN_STATIC_STARTUP, scripts/build-release.sh). The signatures are
// the runtime's own (stdlib/public/CommandLineSupport/CommandLine.cpp); a mismatch fails the
// link or every command, which `ReleaseEndToEndTests` would show.
#ifdef GHLOGIN_STATIC_STARTUP

#include <stddef.h>

static char **startupArgv;
static int startupArgc;
static char **overrideArgv;
static int overrideArgc;

static void keepArguments(int argc, char **argv, char **envp) {
  (void)envp;
  startupArgc = argc;
  startupArgv = argv;
}

// Runs before any Swift code: glibc calls the executable's .init_array entries with
// (argc, argv, envp) before main.
__attribute__((section(".init_array"), used)) static void (*const keepArgumentsEntry)(int, char **, char **) =
    keepArguments;

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
  overrideArgv = argv;
  overrideArgc = argc;
}

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  static char *emptyArgv[] = {NULL};
  if (overrideArgv) {
    *outArgLen = overrideArgc;
    return overrideArgv;
  }
  if (!startupArgv) {
    *outArgLen = 0;
    return emptyArgv;
  }
  *outArgLen = startupArgc;
  return startupArgv;
}

#endif
