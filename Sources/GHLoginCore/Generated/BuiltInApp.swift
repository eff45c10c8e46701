/// The OAuth app a packager compiled into this ghlogin for github.com: the lowest layer of the
/// configuration (below the system file, the user's file and the environment).
///
/// `scripts/build-release.sh` writes it from `GHLOGIN_DEFAULT_CLIENT_ID` (and optionally
/// `GHLOGIN_DEFAULT_CLIENT_SECRET`, `GHLOGIN_DEFAULT_APP_NAME`) into
/// `Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift` (ignored by git, removed after
/// the build) and compiles with `-D GHLOGIN_BUILT_IN_APP`. Without that flag, which no
/// committed file sets, there is none: no default is ever committed, and a generated file left
/// behind compiles to nothing.
package struct BuiltInApp: Sendable, Equatable {
  /// The only host a built-in app applies to.
  package static let host = "github.com"

  package var clientID: String
  package var clientSecret: String?
  /// Whose app it is (`GHLOGIN_DEFAULT_APP_NAME`), for `version` and `help config`.
  package var name: String?

  /// What `version` and `help config` say about it: whether one is built in, and whose.
  package static func summary(_ app: BuiltInApp?) -> String {
    guard let app else { return "no OAuth app is built in (a client ID must be configured)" }
    let whose = app.name.map { "\(Sanitize.terminal($0)) (client ID \(app.clientID))" } ?? "client ID \(app.clientID)"
    return "built-in OAuth app for \(host): \(whose)"
  }
}

#if !GHLOGIN_BUILT_IN_APP
  extension BuiltInApp {
    /// The app compiled in: none in this build.
    package static let compiled: BuiltInApp? = nil
  }
#endif
