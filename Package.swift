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
    // OpenSSL's headers (libssl-dev) and a loader that dlopens libssl.so.3 on first use: the
    // binary does not link libssl/libcrypto, so `token` and `git-credential` never load them.
    .target(name: "COpenSSL"),
    .target(
      name: "GHLoginKit",
      dependencies: ["COpenSSL"],
      swiftSettings: settings
    ),
    .executableTarget(
      name: "ghlogin",
      dependencies: ["GHLoginKit"],
      swiftSettings: settings,
      // Linker/libstdc++.so is a linker script: with --static-swift-stdlib, libstdc++ is
      // linked statically too, so start-up does not load and relocate libstdc++.so.6.
      linkerSettings: [.unsafeFlags(["-L", Context.packageDirectory + "/Linker"])]
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
