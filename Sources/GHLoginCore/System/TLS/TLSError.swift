/// Why a TLS connection could not be set up or used.
///
/// Reasons are OpenSSL's fixed texts (`X509_verify_cert_error_string`,
/// `ERR_reason_error_string`) or `strerror`, produced in one place
/// (`TLSConnection.failureReason`); never bytes from the peer.
enum TLSError: Error, Equatable {
  /// OpenSSL could not create the context or connection, or refused a setting.
  case setup(String)
  /// The extra CA file could not be loaded.
  case caFile(path: String, reason: String)
  /// A trust path named by `setting` (`SSL_CERT_FILE`, `SSL_CERT_DIR`, `ca_file`) is there but
  /// cannot be used: `reason` says why (a FIFO, a directory, too large), R90.
  case unusableTrustPath(path: String, setting: String, reason: String)
  /// The handshake failed; for certificate problems the reason starts with `certificate verify failed: `.
  case handshake(String)
  /// The deadline passed during the handshake.
  case timedOut
  /// SIGINT or SIGTERM arrived during the handshake (see ``Interrupt``).
  case interrupted
}
