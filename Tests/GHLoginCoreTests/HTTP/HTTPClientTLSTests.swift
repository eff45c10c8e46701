import Foundation
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The client's TLS against a Python `ssl` server with certificates from the `openssl` command
/// (R69–R73, R78, R79).
@Suite(.enabled(if: TLSFixture.toolsAvailable, "needs python3 and openssl"))
struct HTTPClientTLSTests {
  private func fixture() throws -> TLSFixture { try #require(TLSFixture.shared) }

  private func client(_ variables: [String: String], caFile: String? = nil) -> HTTPClient {
    HTTPClient(variables: EnvironmentVariables(variables), caFile: caFile, userAgent: "ghlogin/test")
  }

  private func get(_ client: HTTPClient, _ url: String, timeout: Double = 10) throws -> Result<HTTPResponse, HTTPError>
  {
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: url))
    return Result { () throws(HTTPError) in try client.perform(request, timeout: timeout) }
  }

  private func resolving(_ server: FakeTLSServer, _ extra: [String: String] = [:]) -> [String: String] {
    extra.merging(["GHLOGIN_TEST_RESOLVE": "github.test:\(server.port):127.0.0.1"]) { $1 }
  }

  @Test func trustedThroughSSLCertFile() throws {
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let response = try get(
      client(resolving(server, ["SSL_CERT_FILE": fixture.caFile])), "https://github.test:\(server.port)/ok"
    ).get()
    #expect(response.status == 200)
    #expect(response.body == Array("ok".utf8))
    let entry = try #require(server.log().first)
    #expect(entry["event"] as? String == "request")
    #expect(entry["sni"] as? [String] == ["github.test"])
    #expect((entry["head"] as? String)?.hasPrefix("GET /ok HTTP/1.1\r\nHost: github.test:\(server.port)\r\n") == true)
    #expect(["TLSv1.2", "TLSv1.3"].contains(entry["version"] as? String ?? ""))
  }

  @Test func trustedThroughExtraCAFile() throws {
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let response = try get(client(resolving(server), caFile: fixture.caFile), "https://github.test:\(server.port)/ok")
      .get()
    #expect(response.status == 200)
  }

  @Test func untrustedCAIsRefusedAndNothingIsSent() throws {
    let server = try fixture().startServer(leaf: "good")
    defer { server.stop() }
    let result = try get(client(resolving(server)), "https://github.test:\(server.port)/ok")
    #expect(
      result.error
        == .tls(host: "github.test", reason: "certificate verify failed: unable to get local issuer certificate"))
    #expect(result.error?.requestMayHaveBeenSent == false)
    let log = server.log()
    #expect(log.map { $0["event"] as? String } == ["handshake_failed"])
  }

  @Test func missingTrustStoreNeverSucceeds() throws {
    // R71
    let server = try fixture().startServer(leaf: "good")
    defer { server.stop() }
    let variables = resolving(server, ["SSL_CERT_FILE": "/nonexistent", "SSL_CERT_DIR": "/nonexistent"])
    let result = try get(client(variables), "https://github.test:\(server.port)/ok")
    #expect(
      result.error
        == .tls(host: "github.test", reason: "certificate verify failed: unable to get local issuer certificate"))
    #expect(result.error?.message.hasPrefix("TLS connection to github.test failed: certificate verify failed") == true)
  }

  @Test func wrongHostIsRefused() throws {
    // R69, R70
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "other")
    defer { server.stop() }
    let result = try get(
      client(resolving(server, ["SSL_CERT_FILE": fixture.caFile])), "https://github.test:\(server.port)/ok")
    #expect(result.error == .tls(host: "github.test", reason: "certificate verify failed: hostname mismatch"))
    #expect(server.log().map { $0["event"] as? String } == ["handshake_failed"])
  }

  @Test func expiredCertificateIsRefused() throws {
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "expired")
    defer { server.stop() }
    let result = try get(
      client(resolving(server, ["SSL_CERT_FILE": fixture.caFile])), "https://github.test:\(server.port)/ok")
    #expect(result.error == .tls(host: "github.test", reason: "certificate verify failed: certificate has expired"))
  }

  @Test func oldTLSVersionsAreRefused() throws {
    // R69
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good", mode: "tls11")
    defer { server.stop() }
    let result = try get(
      client(resolving(server, ["SSL_CERT_FILE": fixture.caFile])), "https://github.test:\(server.port)/ok")
    guard case .tls(let host, let reason) = result.error else {
      Issue.record("expected a TLS error, got \(result)")
      return
    }
    #expect(host == "github.test")
    #expect(reason.contains("protocol version") || reason.contains("unsupported protocol"), "\(reason)")
    #expect(!server.log().contains { $0["event"] as? String == "request" })
  }

  @Test func ipLiteralHostsSendNoSNIAndCheckTheIPAddress() throws {
    // R70
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let response = try get(client(["SSL_CERT_FILE": fixture.caFile]), "https://127.0.0.1:\(server.port)/ok").get()
    #expect(response.status == 200)
    let entry = try #require(server.log().first)
    #expect(entry["sni"] as? [String] == [])

    let other = try fixture.startServer(leaf: "other")
    defer { other.stop() }
    let result = try get(client(["SSL_CERT_FILE": fixture.caFile]), "https://127.0.0.1:\(other.port)/ok")
    #expect(result.error == .tls(host: "127.0.0.1", reason: "certificate verify failed: IP address mismatch"))
  }

  @Test func truncatedTLSResponseIsAnError() throws {
    // R72, R73: Content-Length 500, 100 bytes, TCP close without close_notify.
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let result = try get(
      client(resolving(server, ["SSL_CERT_FILE": fixture.caFile])), "https://github.test:\(server.port)/truncate")
    #expect(result.error == .badResponse(host: "github.test:\(server.port)", .truncated))
    #expect(result.error?.message.hasPrefix("truncated response from github.test") == true)
  }

  @Test func readUntilCloseNeedsCloseNotify() throws {
    // R72: without framing, only close_notify proves the body complete.
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let tls = client(resolving(server, ["SSL_CERT_FILE": fixture.caFile]))
    let unclean = try get(tls, "https://github.test:\(server.port)/until-close")
    #expect(unclean.error == .badResponse(host: "github.test:\(server.port)", .truncated))
    let clean = try get(tls, "https://github.test:\(server.port)/until-close-notify").get()
    #expect(clean.body == Array("body".utf8))
  }

  @Test func proxyTunnelCarriesTLSToTheOrigin() throws {
    // R78, R79
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "good")
    defer { server.stop() }
    let variables = ["https_proxy": "http://user:pw@127.0.0.1:\(server.proxyPort)", "SSL_CERT_FILE": fixture.caFile]
    let response = try get(client(variables), "https://github.test/ok").get()
    #expect(response.body == Array("ok".utf8))
    let log = server.log(atLeast: 2)
    let connect = try #require(log.first { $0["event"] as? String == "connect" })
    #expect(
      connect["head"] as? String
        == "CONNECT github.test:443 HTTP/1.1\r\nHost: github.test:443\r\nUser-Agent: ghlogin/test\r\n"
        + "Proxy-Authorization: Basic dXNlcjpwdw==\r\n\r\n")
    let request = try #require(log.first { $0["event"] as? String == "request" })
    #expect(request["sni"] as? [String] == ["github.test"])
    let head = try #require(request["head"] as? String)
    #expect(head.hasPrefix("GET /ok HTTP/1.1\r\nHost: github.test\r\n"))
    #expect(!head.lowercased().contains("proxy-authorization"))
  }

  @Test func proxyTunnelStillVerifiesTheOrigin() throws {
    let fixture = try fixture()
    let server = try fixture.startServer(leaf: "other")
    defer { server.stop() }
    let variables = ["https_proxy": "http://127.0.0.1:\(server.proxyPort)", "SSL_CERT_FILE": fixture.caFile]
    let result = try get(client(variables), "https://github.test/ok")
    #expect(result.error == .tls(host: "github.test", reason: "certificate verify failed: hostname mismatch"))
  }
}

/// TLS behaviour that needs no Python: what reaches a server before a handshake completes, and CONNECT failures.
struct HTTPClientTLSPlainServerTests {
  @Test func noHTTPBytesBeforeTheHandshake() throws {
    let server = TestHTTPServer([.close])
    let client = HTTPClient(
      variables: ["GHLOGIN_TEST_RESOLVE": "github.test:\(server.port):127.0.0.1"], userAgent: "ua")
    let request = HTTPRequest(
      method: "GET", url: try WebURL(parsing: "https://github.test:\(server.port)/secret"),
      headers: HTTPHeaders([("Authorization", "Bearer gho_secret")]))
    let result = Result { () throws(HTTPError) in try client.perform(request, timeout: 0.5) }
    server.finish()
    #expect(result.error == .timedOut(host: "github.test", phase: .tlsHandshake))
    let seen = try #require(server.requests.first)
    #expect(seen.utf8.first == 0x16, "a TLS handshake record")
    #expect(seen.contains("github.test"), "SNI in the ClientHello")
    #expect(!seen.contains("GET") && !seen.contains("gho_secret"))
  }

  @Test func proxyAuthenticationRequired() throws {
    // R79: the 407 page is never read into a response.
    let body = "<html>{\"access_token\":\"gho_fake\"}</html>"
    let reply =
      "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
      + body
    let server = TestHTTPServer([.reply(Array(reply.utf8))])
    let client = HTTPClient(variables: ["HTTPS_PROXY": "http://user:hunter2@127.0.0.1:\(server.port)"], userAgent: "ua")
    let url = try WebURL(parsing: "https://github.test/login")
    let result = Result { () throws(HTTPError) in
      try client.perform(HTTPRequest(method: "POST", url: url), timeout: 5)
    }
    server.finish()
    #expect(result.error == .proxyAuthenticationRequired(proxy: "127.0.0.1:\(server.port)"))
    let message = try #require(result.error?.message)
    #expect(message.hasPrefix("proxy authentication required by 127.0.0.1:\(server.port)"))
    #expect(!message.contains("hunter2") && !message.contains("gho_fake"))
    #expect(
      server.requests == [
        "CONNECT github.test:443 HTTP/1.1\r\nHost: github.test:443\r\nUser-Agent: ua\r\nProxy-Authorization: Basic dXNlcjpodW50ZXIy\r\n\r\n"
      ])
  }

  @Test func proxyRefusal() throws {
    let server = TestHTTPServer([.reply(Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 3\r\n\r\nbad".utf8))])
    let client = HTTPClient(variables: ["https_proxy": "127.0.0.1:\(server.port)"], userAgent: "ua")
    let url = try WebURL(parsing: "https://github.test:8443/")
    let result = Result { () throws(HTTPError) in
      try client.perform(HTTPRequest(method: "GET", url: url), timeout: 5)
    }
    server.finish()
    #expect(result.error == .proxyRefused(proxy: "127.0.0.1:\(server.port)", target: "github.test:8443", status: 502))
    #expect(result.error?.message == "proxy 127.0.0.1:\(server.port) refused CONNECT to github.test:8443: 502")
  }

  @Test func proxySendingBytesAfterItsAnswerIsRefused() throws {
    let server = TestHTTPServer([.replyAndHang(Array("HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\n\r\n{}".utf8))])
    let client = HTTPClient(variables: ["https_proxy": "http://127.0.0.1:\(server.port)"], userAgent: "ua")
    let url = try WebURL(parsing: "https://github.test/")
    let result = Result { () throws(HTTPError) in
      try client.perform(HTTPRequest(method: "GET", url: url), timeout: 5)
    }
    server.finish()
    #expect(result.error == .badResponse(host: "proxy 127.0.0.1:\(server.port)", .unexpectedData))
  }
}
