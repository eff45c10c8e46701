import COpenSSL

/// OpenSSL 3 (`libssl.so.3`, which brings `libcrypto.so.3`), loaded on first use.
///
/// The binary does not link OpenSSL: `COpenSSL` resolves the functions ghlogin calls with
/// `dlopen`/`dlsym` the first time ``load()`` runs (once per process, under `pthread_once`).
/// Commands that make no TLS connection and need no randomness (`token`, `git-credential get`)
/// never map OpenSSL or pay for its symbol relocations, and the system's libssl3 package
/// still supplies the code, so its security updates apply without a rebuild.
///
/// Call ``load()`` before any OpenSSL function; ``TLSConnection`` and ``Crypto`` do.
enum TLSLibrary {
  /// OpenSSL could not be loaded; `reason` is `dlerror`'s text.
  struct LoadError: Error, Equatable {
    package var reason: String

    /// What to tell the user: the loader's reason and which package provides the library.
    package var description: String {
      "cannot load OpenSSL 3 (\(reason)); install it (Debian/Ubuntu: apt-get install libssl3)"
    }
  }

  /// Loads OpenSSL once; later calls return the first outcome. Wraps `ghl_openssl_load`.
  package static func load() throws(LoadError) {
    guard ghl_openssl_load() == 1 else { throw LoadError(reason: String(cString: ghl_openssl_load_error())) }
  }

  /// Loads OpenSSL or stops the process with the reason, for the few non-throwing helpers
  /// (``Crypto/sha256(_:)``, ``Crypto/constantTimeEquals(_:_:)``) that only run after a
  /// throwing call has already loaded it.
  static func loadOrStop() {
    do {
      try load()
    } catch {
      fatalError(error.description)
    }
  }

  /// Whether `soname` would load as OpenSSL (every function resolves), without touching the
  /// process's table: nil when it would, else the reason. For tests. Wraps `ghl_openssl_probe`.
  package static func probe(soname: String) -> String? {
    var reason = [CChar](repeating: 0, count: 512)
    guard ghl_openssl_probe(soname, &reason, reason.count) != 1 else { return nil }
    return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
