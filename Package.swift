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
    // The release profile's start-up code (argv.c, libm.c), compiled to nothing unless
    // scripts/build-release.sh defines GHLOGIN_STATIC_STARTUP; nothing else depends on it.
    .target(name: "CStartup"),
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
    // GitHubLoginClock, GitHubLoginBrowser), built on its public API; the browser's socket and
    // thread are Core's System/ helpers (`package`, through GHLoginKit's re-export of Core).
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
    // No linker settings: the release binary's link flags (Linker/, lld, no exported symbols)
    // are scripts/build-release.sh's.
    .executableTarget(
      name: "ghlogin",
      dependencies: ["GHLoginCLI", "CStartup"],
      swiftSettings: settings
    ),
    // What the test targets share: the fakes (FakeTransport, ManualClock, ...), fixtures, /proc
    // reading, the raw loopback TCP client, private temporary directories and seeded
    // credentials files; it re-exports GHLoginCore. Not a product; nothing in Sources depends on it.
    .target(
      name: "GHLoginTestSupport", dependencies: ["GHLoginCore"], path: "Tests/GHLoginTestSupport",
      swiftSettings: settings),
    // One unit-test target per module, each `@testable import`ing only the module it tests
    // (select one with `swift test --filter GHLoginCoreTests`).
    .testTarget(
      name: "GHLoginCoreTests",
      dependencies: ["GHLoginCore", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "GHLoginKitTests",
      dependencies: ["GHLoginKit", "GHLoginKitTesting", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "GHLoginCLITests",
      dependencies: ["GHLoginCLI", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["ghlogin", "GHLoginTestSupport"],
      swiftSettings: settings
    ),
  ]
)
