import Foundation
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// The client end to end over plain HTTP on loopback, against ``TestHTTPServer``.
struct HTTPClientTests {
  private let client = HTTPClient(variables: [:], userAgent: "ghlogin/test")

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  private func perform(_ client: HTTPClient, _ request: HTTPRequest, timeout: Double = 10) -> Result<
    HTTPResponse, HTTPError
  > {
    Result { () throws(HTTPError) in try client.perform(request, timeout: timeout) }
  }

  @Test func getRoundTrip() throws {
    let server = TestHTTPServer([
      .reply(bytes("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"id\": 42}\n"))
    ])
    let url = try WebURL(parsing: "http://127.0.0.1:\(server.port)/user?x=1")
    let request = HTTPRequest(method: "GET", url: url, headers: HTTPHeaders([("Accept", "application/json")]))
    let response = try perform(client, request).get()
    server.finish()
    #expect(response.status == 200)
    #expect(response.mediaType == "application/json")
    #expect(response.body == bytes("{\"id\": 42}\n"))
    #expect(
      server.requests == [
        "GET /user?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: application/json\r\n"
          + "User-Agent: ghlogin/test\r\nConnection: close\r\n\r\n"
      ])
  }

  @Test func postSendsTheBodyAndReadsChunks() throws {
    let reply = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n2;x\r\nef\r\n0\r\n\r\n"
    let server = TestHTTPServer([.reply(bytes(reply))])
    let url = try WebURL(parsing: "http://127.0.0.1:\(server.port)/token")
    let request = HTTPRequest(method: "POST", url: url, body: bytes("code=1"))
    let response = try perform(client, request).get()
    server.finish()
    #expect(response.body == bytes("abcdef"))
    #expect(server.requests.first?.hasSuffix("Content-Length: 6\r\nConnection: close\r\n\r\ncode=1") == true)
  }

  @Test func readUntilCloseBody() throws {
    let server = TestHTTPServer([.reply(bytes("HTTP/1.0 200 OK\r\n\r\nall of it"))])
    let response = try perform(
      client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/"))
    ).get()
    server.finish()
    #expect(response.body == bytes("all of it"))
  }

  @Test func truncatedBodyIsAnError() throws {
    // R72, R73 over TCP: Content-Length 500, 100 bytes, close.
    let server = TestHTTPServer([
      .reply(bytes("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + String(repeating: "x", count: 100)))
    ])
    let result = perform(
      client, HTTPRequest(method: "POST", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/t")))
    server.finish()
    #expect(result.error == .badResponse(host: "127.0.0.1:\(server.port)", .truncated))
    #expect(result.error?.message.hasPrefix("truncated response from 127.0.0.1:\(server.port)") == true)
    #expect(result.error?.requestMayHaveBeenSent == true)
  }

  @Test func closeWithoutAnswer() throws {
    let server = TestHTTPServer([.close])
    let result = perform(
      client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/")))
    server.finish()
    #expect(result.error == .badResponse(host: "127.0.0.1:\(server.port)", .noResponse))
  }

  @Test func redirectsAreReturnedNotFollowed() throws {
    let server = TestHTTPServer([
      .reply(bytes("HTTP/1.1 302 Found\r\nLocation: https://evil.test/user\r\nContent-Length: 0\r\n\r\n"))
    ])
    let request = HTTPRequest(
      method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/user"),
      headers: HTTPHeaders([("Authorization", "Bearer t")]))
    let response = try perform(client, request).get()
    server.finish()
    #expect(response.status == 302)
    #expect(response.headers["location"] == "https://evil.test/user")
    #expect(server.requests.count == 1)
  }

  @Test func oversizedBodyIsRefused() throws {
    var small = client
    small.maxBodyBytes = 10
    let server = TestHTTPServer([.reply(bytes("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n01234567890"))])
    let result = perform(
      small, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/")))
    server.finish()
    #expect(result.error == .badResponse(host: "127.0.0.1:\(server.port)", .bodyTooLarge(limit: 10)))
    #expect(result.error?.message.contains("is too large") == true)
  }

  @Test func malformedResponseNamesTheRule() throws {
    let server = TestHTTPServer([
      .reply(bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nok"))
    ])
    let result = perform(
      client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/")))
    server.finish()
    #expect(
      result.error?.message
        == "malformed response from 127.0.0.1:\(server.port): both Transfer-Encoding and Content-Length")
  }

  @Test func plainHTTPOnlyToLoopback() throws {
    let result = perform(client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://github.test/")))
    #expect(result.error == .insecureURL(host: "github.test"))
    #expect(result.error?.exitStatus == .usage)
  }

  /// R98 (RFC 8252 §8.3): the name `localhost` may resolve elsewhere, so plain
  /// http:// to it is refused before anything is resolved or sent; literal addresses are fine.
  @Test func plainHTTPToTheNameLocalhostIsRefused() throws {
    let server = TestHTTPServer([.reply(bytes("HTTP/1.1 204 No Content\r\n\r\n"))])
    let mapped = HTTPClient(variables: ["GHLOGIN_TEST_RESOLVE": "localhost:\(server.port):127.0.0.1"], userAgent: "ua")
    let refused = perform(
      mapped, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://localhost:\(server.port)/")))
    #expect(refused.error == .insecureURL(host: "localhost"))
    #expect(
      refused.error?.message
        == "refusing plain http:// to localhost: only literal loopback addresses (127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]) may use http, "
        + "not the name localhost; use an https:// URL")
    let response = try perform(
      mapped, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/"))
    ).get()
    server.finish()
    #expect(response.status == 204)
    #expect(server.requests.count == 1, "only the literal address was contacted")
  }

  @Test func refusedHeaderIsCaughtBeforeConnecting() throws {
    let server = TestHTTPServer([])
    let request = HTTPRequest(
      method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/"),
      headers: HTTPHeaders([("Authorization", "Bearer x\r\nX-Injected: 1")]))
    let result = perform(client, request)
    #expect(
      result.error
        == .invalidRequest(reason: "the value of header Authorization has a CR, LF, NUL or other control character"))
    #expect(!server.hasPendingConnection)
    server.finish()
  }

  @Test func connectionRefused() throws {
    let port = try {
      let server = try LoopbackServer()
      defer { server.close() }
      return server.port
    }()
    let result = perform(client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(port)/")))
    #expect(result.error == .connect(host: "127.0.0.1", port: port, reason: "Connection refused"))
    #expect(result.error?.message == "could not connect to 127.0.0.1:\(port): Connection refused")
    #expect(result.error?.requestMayHaveBeenSent == false)
  }

  @Test func responseTimeout() throws {
    let server = TestHTTPServer([.replyAndHang(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\npartial"))])
    let result = perform(
      client, HTTPRequest(method: "GET", url: try WebURL(parsing: "http://127.0.0.1:\(server.port)/")), timeout: 0.3)
    server.finish()
    #expect(result.error == .timedOut(host: "127.0.0.1:\(server.port)", phase: .response))
    #expect(result.error?.message == "timed out waiting for the response from 127.0.0.1:\(server.port)")
  }

  @Test func testResolveMapsNamesToLoopback() throws {
    let variables = ["GHLOGIN_TEST_RESOLVE": "other.test:1:127.0.0.1,github.test:4443:127.0.0.1"]
    let addresses = try Resolver.resolve(host: "github.test", port: 4443, variables: EnvironmentVariables(variables))
    #expect(addresses.map(\.description) == ["127.0.0.1"])
    #expect(addresses.map(\.port) == [4443])
  }

  @Test func testResolveRefusesNonLoopbackTargets() throws {
    let mapped = HTTPClient(variables: ["GHLOGIN_TEST_RESOLVE": "github.test:443:10.0.0.1"], userAgent: "ua")
    let result = perform(mapped, HTTPRequest(method: "GET", url: try WebURL(parsing: "https://github.test/")))
    #expect(result.error == .resolve(host: "github.test", reason: "GHLOGIN_TEST_RESOLVE may only map to 127.0.0.1"))
  }

  @Test func sendThrowsHTTPError() throws {
    #expect(throws: HTTPError.insecureURL(host: "github.test")) {
      try client.send(HTTPRequest(method: "GET", url: try WebURL(parsing: "http://github.test/")), timeout: 1)
    }
  }
}
