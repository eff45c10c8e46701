import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Feeds `text` in one piece (or byte by byte) and, at the end, signals EOF when still incomplete.
func parseResponse(
  _ bytes: [UInt8], method: String = "GET", maxBody: Int = 1 << 20, maxHead: Int = 64 * 1024,
  byteByByte: Bool = false, eof: Bool = true
) -> Result<HTTPResponse, HTTPParseError> {
  var parser = HTTPResponseParser(requestMethod: method, maxHeadBytes: maxHead, maxBodyBytes: maxBody)
  do {
    let pieces: [[UInt8]] = byteByByte ? bytes.map { [$0] } : [bytes]
    for piece in pieces {
      if case .complete(let response) = try parser.feed(piece) { return .success(response) }
    }
    guard eof else { return .failure(.truncated) }
    return .success(try parser.finish())
  } catch {
    return .failure(error)
  }
}

func parseResponse(_ text: String, method: String = "GET", maxBody: Int = 1 << 20) -> Result<
  HTTPResponse, HTTPParseError
> {
  let whole = parseResponse(Array(text.utf8), method: method, maxBody: maxBody)
  let bytewise = parseResponse(Array(text.utf8), method: method, maxBody: maxBody, byteByByte: true)
  #expect(whole == bytewise, "feeding byte by byte must give the same result")
  return whole
}

extension Result where Success == HTTPResponse {
  var body: String? { (try? get()).map { String(decoding: $0.body, as: UTF8.self) } }
}

struct HTTPResponseParserTests {
  @Test func contentLengthBody() throws {
    let response = try parseResponse("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
      .get()
    #expect(response.status == 200)
    #expect(response.reason == "OK")
    #expect(response.headers["content-type"] == "application/json")
    #expect(response.body == Array("{}".utf8))
  }

  @Test func completesWithoutEOFWhenLengthIsKnown() throws {
    let result = parseResponse(Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc".utf8), eof: false)
    #expect(result.body == "abc")
  }

  @Test func bytesAfterTheBodyAreLeftUnconsumed() throws {
    var parser = HTTPResponseParser()
    let result = try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxEXTRA".utf8))
    guard case .complete(let response) = result else {
      Issue.record("expected a complete response")
      return
    }
    #expect(response.body == [UInt8(ascii: "x")])
    #expect(Array(parser.unconsumed) == Array("EXTRA".utf8))
  }

  @Test(arguments: [
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000003\r\nabc\r\n0\r\n\r\n", "abc"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;name=value\r\nabc\r\n0\r\n\r\n", "abc"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3 ;ext\r\nabc\r\n0\r\n\r\n", "abc"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: 1\r\nY: 2\r\n\r\n", "abc"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", ""),
    ("HTTP/1.1 200 OK\r\n\r\nread until close", "read until close"),
    ("HTTP/1.0 200 OK\r\n\r\n", ""),
    ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", ""),
    ("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc", "abc"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", "abc"),
    ("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", ""),
    ("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", ""),
    ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok"),
    ("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", "ok"),
    ("HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nok", "ok"),
    ("HTTP/1.1 404 Not Found\r\nContent-Length:2\r\n\r\nno", "no"),
    ("HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Spaces:   v \t\r\nContent-Length: 1\r\n\r\n1", "1"),
  ])
  func acceptedBodies(_ text: String, expected: String) {
    let result = parseResponse(text)
    #expect(result.body == expected, "\(text.debugDescription) → \(result)")
  }

  @Test func headerValuesAreTrimmedAndOrdered() throws {
    let response = try parseResponse("HTTP/1.1 200 OK\r\nA: 1\r\nB:\t two words \r\na: 3\r\nContent-Length: 0\r\n\r\n")
      .get()
    #expect(response.headers.values(for: "A") == ["1", "3"])
    #expect(response.headers["b"] == "two words")
  }

  @Test func headHasNoBody() {
    let result = parseResponse("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n", method: "HEAD")
    #expect(result.body == "")
  }

  @Test func connectResponseEndsAtTheHead() throws {
    var parser = HTTPResponseParser(requestMethod: "CONNECT")
    let result = try parser.feed(Array("HTTP/1.1 407 Proxy Auth\r\nContent-Length: 100\r\n\r\n<html>".utf8))
    guard case .complete(let response) = result else {
      Issue.record("CONNECT response must end at its head")
      return
    }
    #expect(response.status == 407)
    #expect(response.body.isEmpty)
    #expect(Array(parser.unconsumed) == Array("<html>".utf8))
  }

  @Test(arguments: [
    // R73: both framings, differing lengths, bare CR.
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
      HTTPParseError.contentLengthWithTransferEncoding
    ),
    ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", .contentLengthWithTransferEncoding),
    ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello", .conflictingContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello", .conflictingContentLength),
    ("HTTP/1.1 200 OK\r\nX: a\rb\r\nContent-Length: 0\r\n\r\n", .bareLineEnding),
    ("HTTP/1.1 200 OK\r\nX: a\nContent-Length: 0\r\n\r\n", .bareLineEnding),
    ("HTTP/1.1 200 OK\nContent-Length: 0\n\n", .bareLineEnding),
    ("HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n", .nulByte),
    ("HTTP/1.1 200 OK\r\nX: a\u{1}b\r\n\r\n", .invalidHeaderValue),
    ("HTTP/1.1 200 OK\r\nX: a\u{7F}\r\n\r\n", .invalidHeaderValue),
    ("HTTP/1.1 200 OK\r\nX: a\r\n continued\r\n\r\n", .obsoleteLineFolding),
    ("HTTP/1.1 200 OK\r\nX: a\r\n\tcontinued\r\n\r\n", .obsoleteLineFolding),
    ("HTTP/1.1 200 OK\r\nX : a\r\n\r\n", .invalidHeaderName),
    ("HTTP/1.1 200 OK\r\n: a\r\n\r\n", .invalidHeaderName),
    ("HTTP/1.1 200 OK\r\nNo colon\r\n\r\n", .invalidHeaderName),
    ("HTTP/1.1 200 OK\r\nX(y): a\r\n\r\n", .invalidHeaderName),
    ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 1,\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", .invalidContentLength),
    ("HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n", .bodyTooLarge(limit: 1 << 20)),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
      .unsupportedTransferEncoding
    ),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n", .unsupportedTransferEncoding),
    ("HTTP/1.1 101 Switching Protocols\r\n\r\n", .unexpectedInformational(status: 101)),
    ("HTTP/1.1 103 Early Hints\r\n\r\n", .unexpectedInformational(status: 103)),
    ("HTTP/2 200 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/2.0 200 OK\r\n\r\n", .unsupportedVersion),
    ("HTTP/1.2 200 OK\r\n\r\n", .unsupportedVersion),
    ("http/1.1 200 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1  200 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1 20 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1 2000 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1 099 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1 600 OK\r\n\r\n", .invalidStartLine),
    ("HTTP/1.1 200 O\u{1B}K\r\n\r\n", .invalidStartLine),
    ("\r\nHTTP/1.1 200 OK\r\n\r\n", .invalidStartLine),
    ("SSH-2.0-OpenSSH\r\n\r\n", .invalidStartLine),
    ("", .noResponse),
    ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n", .truncated),
    ("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + String(repeating: "x", count: 100), .truncated),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", .truncated),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", .truncated),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n", .truncated),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", .truncated),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nx\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a\u{1}\r\nhello\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n", .invalidChunkSize),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\rhello\r\n", .bareLineEnding),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXY0\r\n\r\n", .invalidChunkFraming),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\rX", .invalidChunkFraming),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", .bodyTooLarge(limit: 1 << 20)),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", .bodyTooLarge(limit: 1 << 20)),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", .invalidHeaderName),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n folded\r\n\r\n", .obsoleteLineFolding),
  ])
  func rejected(_ text: String, expected: HTTPParseError) {
    let result = parseResponse(text)
    #expect(result.error == expected, "\(text.debugDescription) → \(result)")
  }

  @Test func bodyCapIsConfigurable() {
    #expect(
      parseResponse("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", maxBody: 10).error
        == .bodyTooLarge(limit: 10))
    #expect(parseResponse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", maxBody: 10).body == "0123456789")
    #expect(parseResponse("HTTP/1.1 200 OK\r\n\r\n0123456789A", maxBody: 10).error == .bodyTooLarge(limit: 10))
    let chunks = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n6789A\r\n0\r\n\r\n"
    #expect(parseResponse(chunks, maxBody: 10).error == .bodyTooLarge(limit: 10))
  }

  @Test func headLimitIsExactAt64KiB() {
    let prefix = "HTTP/1.1 200 OK\r\nX: "
    let fill = 64 * 1024 - prefix.utf8.count - 4
    let exact = prefix + String(repeating: "a", count: fill) + "\r\n\r\n"
    #expect(parseResponse(exact).body == "")
    let over = prefix + String(repeating: "a", count: fill + 1) + "\r\n\r\n"
    #expect(parseResponse(over).error == .headersTooLarge(limit: 64 * 1024))
    let endless = prefix + String(repeating: "a", count: 70 * 1024)
    #expect(parseResponse(endless).error == .headersTooLarge(limit: 64 * 1024))
  }

  @Test func headerCountIsLimitedTo100() {
    func response(fields: Int) -> String {
      "HTTP/1.1 200 OK\r\n" + (0..<fields).map { "X-\($0): v\r\n" }.joined() + "\r\n"
    }
    #expect(parseResponse(response(fields: 100)).body == "")
    #expect(parseResponse(response(fields: 101)).error == .tooManyHeaders(limit: 100))
    let trailers =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + (0...100).map { "T\($0): v\r\n" }.joined() + "\r\n"
    #expect(parseResponse(trailers).error == .tooManyHeaders(limit: 100))
  }

  @Test func trailerSectionHasTheHeadLimit() {
    let trailers =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "a", count: 70_000)
      + "\r\n\r\n"
    #expect(parseResponse(trailers).error == .headersTooLarge(limit: 64 * 1024))
  }

  @Test func endlessContinuesAreRefused() {
    let text = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 9) + "HTTP/1.1 200 OK\r\n\r\n"
    #expect(parseResponse(text).error == .unexpectedInformational(status: 100))
  }

  @Test func chunkSizeLineIsBounded() {
    let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 5000)
    #expect(parseResponse(text).error == .invalidChunkSize)
    let zeros = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 5000)
    #expect(parseResponse(zeros).error == .invalidChunkSize)
  }

  @Test func everySplitPointGivesTheSameResult() throws {
    let text = Array(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n1\r\n!\r\n0\r\nT: 1\r\n\r\n".utf8)
    for split in 0...text.count {
      var parser = HTTPResponseParser()
      var result = try parser.feed(text[..<split])
      if case .needMore = result { result = try parser.feed(text[split...]) }
      guard case .complete(let response) = result else {
        Issue.record("split at \(split) did not complete")
        continue
      }
      #expect(response.body == Array("hello!".utf8))
    }
  }

  @Test func randomBytesNeverCrash() {
    var generator = SeededGenerator(seed: 0x5EED)
    let seeds = [
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    ].map { Array($0.utf8) }
    for round in 0..<3000 {
      var bytes: [UInt8]
      if round % 2 == 0 {
        bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
        }
      } else {
        bytes = seeds[round % 4 / 2]
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          let index = Int.random(in: 0..<bytes.count, using: &generator)
          bytes[index] = UInt8.random(in: 0...255, using: &generator)
        }
      }
      let whole = parseResponse(bytes, maxBody: 64)
      let bytewise = parseResponse(bytes, maxBody: 64, byteByByte: true)
      #expect(whole == bytewise)
      if case .success(let response) = whole { #expect(response.body.count <= 64) }
    }
  }
}

/// A deterministic generator (SplitMix64) so random tests reproduce.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
