// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "ghlogin",
  products: [
    .executable(name: "ghlogin", targets: ["ghlogin"])
  ],
  targets: [
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"])]
    ),
    .target(
      name: "GHLoginKit",
      dependencies: ["COpenSSL"],
      swiftSettings: settings
    ),
    .executableTarget(
      name: "ghlogin",
      dependencies: ["GHLoginKit"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "GHLoginKitTests",
      dependencies: ["GHLoginKit"],
      swiftSettings: settings
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["ghlogin"],
      swiftSettings: settings
    ),
  ]
)
