// swift-tools-version:6.0
import PackageDescription

// An example tool that uses GHLoginKit through its public API only: it logs in when needed
// and lists the user's repositories. It depends on the library by path, like a tool kept next
// to a checkout of ghlogin would.
let package = Package(
  name: "ListRepositories",
  dependencies: [
    .package(name: "ghlogin", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "list-repositories",
      dependencies: [.product(name: "GHLoginKit", package: "ghlogin")]
    )
  ]
)
