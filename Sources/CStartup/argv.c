// The command line for Swift's `CommandLine`, without reading /proc/self/maps.
//
// The Swift runtime's CommandLine.cpp (linked from libswiftCore.a into a
// `--static-swift-stdlib` binary) finds argv with a static initializer that opens
// /proc/self/maps, parses every line with sscanf to find the stack, and walks back from
// `environ`: a /proc read and many sscanf calls before main (bench/RESULTS.md, issue 13).
// glibc hands argc and argv to every `.init_array` function of the
// executable, so this file keeps them from there and defines the two runtime entry points
// CommandLine.cpp would: the linker then never pulls CommandLine.cpp.o out of
// libswiftCore.a, and its initializer never runs.
//
// Release builds only (GHLOGIN_STATIC_STARTUP, set by scripts/build-release.sh): debug builds and tests
// use the shared Swift runtime as it is. The signatures are the runtime's own (Swift 6.x,
// stdlib/public/CommandLineSupport/CommandLine.cpp); `ReleaseEndToEndTests` runs the
// release binary with arguments, and a mismatch would fail the link (duplicate symbols) or
// every command.
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
