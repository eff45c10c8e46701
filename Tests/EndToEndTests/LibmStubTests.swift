import Foundation
import GHLoginTestSupport
import Testing

/// The release binary loads libm on first use: Sources/CStartup/libm.c defines the math
/// functions the Swift standard library references as stubs that open libm.so.6 and forward,
/// and computes the five that round a Double (`ceil`, `floor`, `trunc`, `round`, `rint`)
/// itself. Tests/CStartup/libm_check.c, built as the release binary is (libm.c with
/// GHLOGIN_STATIC_STARTUP, no -lm), calls every stub and the real function and compares the
/// bits; each of the five on its edge cases and 1,000,000 random inputs.
struct LibmStubTests {
  @Test func everyMathStubReturnsWhatLibmReturns() throws {
    let root = HarnessPaths.packageRoot
    let clang = try #require(HarnessPaths.findOnPath("clang"), "clang (the Swift toolchain's) is not on PATH")
    let directory = try TemporaryDirectory(prefix: "libm-check")
    let program = directory.path + "/libm_check"
    let build = try ChildProcess(
      executable: clang,
      arguments: [
        "-O2", "-fno-builtin", "-DGHLOGIN_STATIC_STARTUP", "-Wall", "-Werror", "-o", program,
        root + "/Tests/CStartup/libm_check.c", root + "/Sources/CStartup/libm.c",
      ], stdin: ""
    ).finish(timeout: 120)
    #expect(build.status == 0, "\(build.stderr)")
    guard build.status == 0 else { return }

    // Built as the release binary is: nothing links libm, so every call reaches a stub.
    let readelf = try ChildProcess(executable: "/usr/bin/readelf", arguments: ["-d", program], stdin: "")
      .finish(timeout: 30)
    #expect(readelf.stdout.contains("[libc.so.6]") && !readelf.stdout.contains("[libm.so"), "\(readelf.stdout)")

    let check = try ChildProcess(executable: program, arguments: [], stdin: "").finish(timeout: 120)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout == "checked 107 functions\n", "\(check.stdout)")
  }
}
