import COpenSSL

/// Where the TLS client's trusted CA certificates come from (R71).
///
/// The same as `SSL_CTX_set_default_verify_paths`, but reading
/// `SSL_CERT_FILE`/`SSL_CERT_DIR` from the environment the command was given
/// rather than the process's, so tests need no `setenv`: the file is
/// `SSL_CERT_FILE` or OpenSSL's built-in default (`X509_get_default_cert_file`),
/// the directory list `SSL_CERT_DIR` or the built-in one. When neither variable
/// is set and those load no certificate, the distribution bundles are probed.
/// An extra PEM bundle (`caFile`) is added on top. There is no switch to turn
/// verification off.
struct TLSTrust: Sendable, Hashable {
  package var certFile: String?
  var certDirectories: String?
  var extraCAFile: String?

  package init(variables: EnvironmentVariables, caFile: String?) {
    certFile = variables["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    certDirectories = variables["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    extraCAFile = caFile
  }

  /// CA bundles of the common distributions, as Go's `crypto/x509/root_linux.go` lists them.
  static let distributionBundles = [
    "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Gentoo, Arch
    "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL 6
    "/etc/ssl/ca-bundle.pem",  // openSUSE
    "/etc/pki/tls/cacert.pem",  // OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7
    "/etc/ssl/cert.pem",  // Alpine
  ]

  /// Loads the trust store into `context` (an `SSL_CTX*`).
  ///
  /// Every file is opened by ``TrustFile`` first, without blocking (R90): a FIFO, device or
  /// directory named by `SSL_CERT_FILE` or `ca_file`, or a non-directory in `SSL_CERT_DIR`, throws
  /// ``TLSError/unusableTrustPath(path:setting:reason:)``; one at a default location is skipped.
  package func load(into context: OpaquePointer) throws(TLSError) {
    let file = certFile ?? String(cString: X509_get_default_cert_file())
    let directories = certDirectories ?? String(cString: X509_get_default_cert_dir())
    // Like SSL_CTX_set_default_verify_paths, a missing default location is not an error.
    if let opened = try Self.open(file, setting: certFile == nil ? nil : "SSL_CERT_FILE") {
      _ = SSL_CTX_load_verify_locations(context, opened.pathForOpenSSL, nil)
    }
    if certDirectories != nil {
      for entry in directories.split(separator: ":") {
        do { try TrustFile.checkDirectory(String(entry)) } catch {
          throw .unusableTrustPath(
            path: String(entry), setting: "SSL_CERT_DIR", reason: Self.reason(error, directory: true))
        }
      }
    }
    _ = SSL_CTX_load_verify_locations(context, nil, directories)
    ERR_clear_error()
    if certFile == nil, certDirectories == nil, ghl_ctx_trusted_count(context) == 0 {
      for bundle in Self.distributionBundles {
        guard let opened = try Self.open(bundle, setting: nil) else { continue }
        if SSL_CTX_load_verify_locations(context, opened.pathForOpenSSL, nil) == 1 { break }
      }
      ERR_clear_error()
    }
    if let extraCAFile {
      let opened = try Self.open(extraCAFile, setting: "ca_file")
      guard SSL_CTX_load_verify_locations(context, opened?.pathForOpenSSL ?? extraCAFile, nil) == 1 else {
        let reason = TLSConnection.queuedErrorReason() ?? "no certificates found"
        throw .caFile(path: extraCAFile, reason: reason)
      }
    }
  }

  /// `path` opened by ``TrustFile``; nil when it cannot be opened (left to OpenSSL's own error)
  /// or, for a default location (`setting` nil), when it is not a usable regular file.
  private static func open(_ path: String, setting: String?) throws(TLSError) -> TrustFile? {
    do { return try TrustFile(file: path) } catch {
      guard let setting else { return nil }
      throw .unusableTrustPath(path: path, setting: setting, reason: reason(error, directory: false))
    }
  }

  private static func reason(_ problem: TrustFile.Problem, directory: Bool) -> String {
    switch problem {
    case .wrongKind(let kind): "it is \(kind), not \(directory ? "a directory" : "a regular file")"
    case .tooLarge: "it is larger than \(TrustFile.maximumSize >> 20) MiB"
    }
  }
}
