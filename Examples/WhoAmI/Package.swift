// swift-tools-version:6.0
import PackageDescription

// An example tool that logs in with GHLoginKit, calls the GitHub API at the token's own base URL,
// and tests its login code without a server, a browser or a wait: the library's transport, clock
// and browser are injected (GitHubLoginEnvironment), with the fakes of GHLoginKitTesting. Public
// API only; it depends on the library by path, like a tool kept next to a checkout of ghlogin would.
let package = Package(
  name: "WhoAmI",
  dependencies: [
    .package(name: "ghlogin", path: "../..")
  ],
  targets: [
    .target(name: "WhoAmICore", dependencies: [.product(name: "GHLoginKit", package: "ghlogin")]),
    .executableTarget(name: "whoami-tool", dependencies: ["WhoAmICore"]),
    .testTarget(
      name: "WhoAmICoreTests",
      dependencies: ["WhoAmICore", .product(name: "GHLoginKitTesting", package: "ghlogin")]),
  ]
)
