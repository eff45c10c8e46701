import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The process's TLS contexts: one per trust, reused, and never kept after a failure. (That a
/// shared context verifies as strictly as before is what the TLS client tests check.)
@Suite struct TLSContextTests {
  /// A trust that needs no files: an empty certificate directory list and no bundle file.
  private func trust(_ directory: String) -> TLSTrust {
    TLSTrust(
      variables: ["SSL_CERT_FILE": "/nonexistent/ghlogin-test-bundle.pem", "SSL_CERT_DIR": directory], caFile: nil)
  }

  @Test func theSameTrustGetsTheSameContext() throws {
    let cache = TLSContextCache(capacity: 2)
    let first = try cache.context(for: trust("/nonexistent/a"))
    #expect(try cache.context(for: trust("/nonexistent/a")) === first)
    #expect(try cache.context(for: trust("/nonexistent/b")) !== first)
  }

  @Test func theOldestContextIsDroppedBeyondTheCapacity() throws {
    let cache = TLSContextCache(capacity: 2)
    let a = try cache.context(for: trust("/nonexistent/a"))
    let b = try cache.context(for: trust("/nonexistent/b"))
    _ = try cache.context(for: trust("/nonexistent/c"))  // drops a
    #expect(try cache.context(for: trust("/nonexistent/b")) === b)
    #expect(try cache.context(for: trust("/nonexistent/a")) !== a)
  }

  @Test func aFailureIsNotCached() throws {
    let cache = TLSContextCache(capacity: 2)
    let broken = TLSTrust(variables: [:], caFile: "/nonexistent/ghlogin-extra-ca.pem")
    for _ in 0..<2 {
      #expect(throws: TLSError.self) { try cache.context(for: broken) }
    }
    #expect(throws: TLSError.self) { try TLSContext.shared(for: broken) }
  }
}
