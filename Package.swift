// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target. No unsafe flags here: a library target with
/// them cannot be a version-tagged dependency; the release build's own flags are in
/// scripts/build-release.sh.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
  name: "ghlogin",
  products: [
    .executable(name: "ghlogin", targets: ["ghlogin"]),
    // The library Swift tools depend on (its public API: Sources/GHLoginKit, api/GHLoginKit.txt).
    .library(name: "GHLoginKit", targets: ["GHLoginKit"]),
    // What a tool's tests fake GitHub with: a scripted transport, an instant clock, a browser
    // that approves (api/GHLoginKitTesting.txt).
    .library(name: "GHLoginKitTesting", targets: ["GHLoginKitTesting"]),
  ],
  targets: [
    // OpenSSL's headers (libssl-dev) and a loader that dlopens libssl.so.3 on first use: the
    // binary does not link libssl/libcrypto, so `token` and `git-credential` never load them.
    .target(name: "COpenSSL"),
    // The Secret Service through libsecret-1.so.0, loaded with dlopen on the first keyring
    // access (own prototypes, no headers): the file store never maps libsecret, GLib or GIO.
    .target(name: "CSecretService"),
    // In the release binary: replaces the Swift runtime's argv lookup, which reads
    // /proc/self/maps at start-up (Sources/CStartup/argv.c), and loads libm on first use
    // (libm.c, with Linker/libm.so); nothing else depends on it.
    .target(name: "CStartup", cSettings: [.define("GHLOGIN_STATIC_STARTUP", .when(configuration: .release))]),
    // The layers below the library and the command line: System, Support, HTTP, Store, GitHub,
    // OAuth, Git, ToolHelpers, the seam protocols (Environment/) and the one login pipeline
    // (Login/). Synchronous, no Swift Concurrency; `package` access except the value types
    // GHLoginKit re-exports.
    .target(
      name: "GHLoginCore",
      dependencies: ["COpenSSL", "CSecretService"],
      swiftSettings: settings
    ),
    // The library Swift tools depend on: the `GitHubLogin` façade, its async bridge and
    // `GitHubLoginError` (its public API: api/GHLoginKit.txt).
    .target(
      name: "GHLoginKit",
      dependencies: ["GHLoginCore"],
      swiftSettings: settings
    ),
    // Fakes of GHLoginKit's public seams for a tool's tests (GitHubLoginTransport,
    // GitHubLoginClock, GitHubLoginBrowser), built on its public API only.
    .target(
      name: "GHLoginKitTesting",
      dependencies: ["GHLoginKit"],
      swiftSettings: settings
    ),
    // The command line: argument parsing, help, completion, the man page, the commands and
    // their terminal text. Depends on Core only, so `ghlogin` links no Swift Concurrency.
    .target(
      name: "GHLoginCLI",
      dependencies: ["GHLoginCore"],
      swiftSettings: settings
    ),
    .executableTarget(
      name: "ghlogin",
      dependencies: ["GHLoginCLI", "CStartup"],
      swiftSettings: settings,
      // Linker/ holds linker scripts named libstdc++.so, libgcc_s.so and libm.so: with
      // --static-swift-stdlib, libstdc++ and the unwinder are linked statically too, and libm
      // not at all (CStartup/libm.c loads it on first use), so start-up does not load and
      // relocate libstdc++.so.6, libgcc_s.so.1 and libm.so.6.
      // Release builds only: debug builds and tests use the shared Swift runtime, which brings
      // both libraries itself.
      linkerSettings: [
        .unsafeFlags(
          [
            "-L", Context.packageDirectory + "/Linker", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linker/startup.order",
            "-Xlinker", "--no-warn-symbol-ordering",
          ],
          .when(configuration: .release))
      ]
    ),
    // What both test targets share: /proc reading, the raw loopback TCP client, private
    // temporary directories and seeded credentials files. Not a product;
    // nothing in Sources depends on it.
    .target(
      name: "GHLoginTestSupport", dependencies: ["GHLoginCore"], path: "Tests/GHLoginTestSupport",
      swiftSettings: settings),
    .testTarget(
      name: "GHLoginKitTests",
      dependencies: ["GHLoginCore", "GHLoginKit", "GHLoginKitTesting", "GHLoginCLI", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["ghlogin", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
  ]
)
