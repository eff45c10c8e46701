import COpenSSL
import Synchronization

/// A configured client `SSL_CTX` for one ``TLSTrust``, made once and shared by every
/// connection of the process that uses the same trust.
///
/// Making a context is the expensive part of an OpenSSL 3 connection (it parses the whole CA
/// bundle), so a login's connections share one. It is configured completely before it is
/// shared (R69–R71) and never changed; each ``TLSConnection`` makes its own `SSL` from it and
/// sets the host to verify there. A failure is not kept: the next connection tries again.
///
/// `@unchecked Sendable`: OpenSSL allows `SSL_new` on one `SSL_CTX` from several threads as
/// long as nothing modifies the context, and nothing does once it is built.
final class TLSContext: @unchecked Sendable {
  /// The `SSL_CTX*`.
  package let pointer: OpaquePointer

  private init(pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    SSL_CTX_free(pointer)
  }

  /// The context for `trust` from the process's cache (``TLSContextCache/shared``).
  package static func shared(for trust: TLSTrust) throws(TLSError) -> TLSContext {
    try TLSContextCache.shared.context(for: trust)
  }

  /// `SSL_CTX_new(TLS_client_method())`, configured by ``configure(_:trust:)``; freed on failure.
  /// Loads OpenSSL (``TLSLibrary``) first.
  package static func make(_ trust: TLSTrust) throws(TLSError) -> TLSContext {
    do {
      try TLSLibrary.load()
    } catch {
      throw .setup(error.description)
    }
    ERR_clear_error()
    guard let pointer = SSL_CTX_new(TLS_client_method()) else {
      throw .setup(TLSConnection.queuedErrorReason() ?? "SSL_CTX_new failed")
    }
    let context = TLSContext(pointer: pointer)  // frees the SSL_CTX if configuring throws
    try configure(pointer, trust: trust)
    return context
  }

  /// At least TLS 1.2, `SSL_VERIFY_PEER` without a callback, partial writes, and the trust store.
  private static func configure(_ context: OpaquePointer, trust: TLSTrust) throws(TLSError) {
    guard ghl_ctx_set_min_proto(context, TLS1_2_VERSION) == 1 else { throw .setup("cannot require TLS 1.2") }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    _ = ghl_ctx_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
    try trust.load(into: context)
  }
}

/// The contexts of one process, by trust: at most `capacity`, the oldest dropped first (and
/// freed once no connection uses it). Trusts differ only by `SSL_CERT_FILE`, `SSL_CERT_DIR`
/// and a host's `ca_file`, so a few entries are plenty.
final class TLSContextCache: Sendable {
  /// The cache every ``TLSConnection`` uses.
  package static let shared = TLSContextCache(capacity: 4)

  package let capacity: Int
  private let entries = Mutex<[(trust: TLSTrust, context: TLSContext)]>([])

  package init(capacity: Int) {
    precondition(capacity > 0, "TLSContextCache: capacity must be positive")
    self.capacity = capacity
  }

  /// The cached context for `trust`, else a new one (``TLSContext/make(_:)``), then cached.
  /// Throws ``TLSError/setup(_:)`` or ``TLSError/caFile(path:reason:)``; nothing is cached then.
  package func context(for trust: TLSTrust) throws(TLSError) -> TLSContext {
    if let found = entries.withLock({ list in list.first { $0.trust == trust }?.context }) { return found }
    let made = try TLSContext.make(trust)
    return entries.withLock { list in
      // Another thread may have made one meanwhile: keep the first.
      if let found = list.first(where: { $0.trust == trust })?.context { return found }
      list.append((trust, made))
      if list.count > capacity { list.removeFirst() }
      return made
    }
  }
}
