/// The release this build is: `ghlogin --version`, the man page and the `User-Agent` of every
/// request (GitHub rejects API requests without one).
package enum Release {
  /// The version printed by `ghlogin --version`.
  package static let version = "0.1.0"
  /// Sent on every request.
  package static let userAgent = "\(ProductNames.userAgentProduct)/\(version)"
}
