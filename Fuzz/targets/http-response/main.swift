// Fuzz target: the client's response parser with chunked decoding (HTTP/HTTPResponseParser.swift).
//
// Input: one control byte, then the bytes a server sends. The control byte's low 3 bits pick
// the request method (GET mostly; HEAD; CONNECT). Invariants:
// - whole, in random pieces (sizes seeded from the input) and byte by byte, then `finish()`,
//   the parser reaches the same outcome (the same response, the same error);
// - a response has a final status 200–599, a reason and header values without control bytes
//   (HTAB allowed) or CR/LF, header names that are tokens, and a body within the limit; for
//   HEAD/CONNECT/204/304 the body is empty; with a valid Content-Length the body has that size;
// - the bytes after a complete response (a CONNECT tunnel's first TLS bytes) are kept exactly;
// - the small-limit parser (256-byte head, 4 fields, 64-byte body) stays within its limits.

enum Outcome: Equatable {
  case response(HTTPResponse, unconsumed: [UInt8])
  case failed(HTTPParseError)
}

func run(_ pieces: [ArraySlice<UInt8>], _ parser: inout HTTPResponseParser) -> Outcome {
  do {
    for (index, piece) in pieces.enumerated() {
      if case .complete(let response) = try parser.feed(piece) {
        // What follows the response: the parser's leftover plus the pieces not fed yet.
        return .response(response, unconsumed: Array(parser.unconsumed) + pieces[(index + 1)...].joined())
      }
    }
    return .response(try parser.finish(), unconsumed: [])
  } catch {
    return .failed(error)
  }
}

func check(_ response: HTTPResponse, method: String, maxBody: Int, maxHeaderCount: Int) {
  invariant((200...599).contains(response.status), "final status \(response.status)")
  invariant(response.reason.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }, "control byte in reason")
  invariant(response.headers.fields.count <= maxHeaderCount, "too many fields")
  for (name, value) in response.headers {
    invariant(HTTPSyntax.isToken(Array(name.utf8)), "header name is not a token: \(name.debugDescription)")
    invariant(
      value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) },
      "control byte in value: \(value.debugDescription)")
  }
  invariant(response.body.count <= maxBody, "body of \(response.body.count) bytes over the \(maxBody) limit")
  if method == "HEAD" || method == "CONNECT" || response.status == 204 || response.status == 304 {
    invariant(response.body.isEmpty, "a body on a response that has none")
  } else if let length = response.headers["Content-Length"], let declared = Int(length) {
    invariant(response.body.count == declared, "body of \(response.body.count) bytes, Content-Length \(declared)")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let control = data[0]
  let input = bytes(data + 1, size - 1)
  let method = ["GET", "GET", "POST", "DELETE", "GET", "HEAD", "CONNECT", "GET"][Int(control & 7)]
  var random = SplitMix64(seed: SplitMix64.seed(input) ^ UInt64(control))

  var whole = HTTPResponseParser(requestMethod: method)
  let expected = run([input[...]], &whole)
  var split = HTTPResponseParser(requestMethod: method)
  let splitOutcome = run(randomSplits(input, &random), &split)
  invariant(splitOutcome == expected, "random splits gave \(splitOutcome), whole input gave \(expected)")
  if input.count <= 2048 {
    var single = HTTPResponseParser(requestMethod: method)
    let singleOutcome = run(input.map { [$0][...] }, &single)
    invariant(singleOutcome == expected, "byte-by-byte gave \(singleOutcome), whole input gave \(expected)")
  }
  if case .response(let response, _) = expected {
    check(response, method: method, maxBody: 1024 * 1024, maxHeaderCount: 100)
  }

  var small = HTTPResponseParser(requestMethod: method, maxHeadBytes: 256, maxHeaderCount: 4, maxBodyBytes: 64)
  if case .response(let response, _) = run(randomSplits(input, &random), &small) {
    check(response, method: method, maxBody: 64, maxHeaderCount: 4)
  }
  return 0
}
