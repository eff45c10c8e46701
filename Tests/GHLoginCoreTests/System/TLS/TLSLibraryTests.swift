import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct TLSLibraryTests {
  @Test func theSystemOpenSSLLoadsAndEveryFunctionResolves() throws {
    #expect(TLSLibrary.probe(soname: "libssl.so.3") == nil)
    try TLSLibrary.load()
    try TLSLibrary.load()  // a second call returns the first outcome
  }

  @Test func aMissingLibraryIsReportedWithDlopensReason() throws {
    let reason = try #require(TLSLibrary.probe(soname: "libghlogin-no-such-library.so.3"))
    #expect(reason == "libghlogin-no-such-library.so.3: cannot open shared object file: No such file or directory")
  }

  @Test func aLibraryWithoutOpenSSLsFunctionsIsRefused() throws {
    // libm loads but has none of the functions: the first one looked up is named.
    let reason = try #require(TLSLibrary.probe(soname: "libm.so.6"))
    #expect(reason.hasSuffix("undefined symbol: BIO_free_all"))
  }

  @Test func theLoadErrorSaysWhatToInstall() {
    let error = TLSLibrary.LoadError(reason: "libssl.so.3: cannot open shared object file: No such file or directory")
    #expect(
      error.description
        == "cannot load OpenSSL 3 (libssl.so.3: cannot open shared object file: No such file or directory); "
        + "install it (Debian/Ubuntu: apt-get install libssl3)")
  }

  @Test func aCryptoLoadFailureKeepsTheReasonAndExitsOne() {
    let error = CryptoError(call: "dlopen", loadFailure: "cannot load OpenSSL 3 (x); install it")
    #expect(error.message == "cannot load OpenSSL 3 (x); install it; nothing was sent")
    #expect(error.exitStatus == .failure)
  }
}
