// Fuzz target: the loopback listener's request-head parser (HTTP/HTTPRequestParser.swift).
//
// The input is the bytes a client sends. Invariants:
// - fed whole, fed in random pieces (sizes seeded from the input) and fed one byte at a time,
//   the parser reaches the same outcome (the same head, the same error, or "need more");
// - a parsed head has a token method, a target of visible ASCII, HTTP/1.0 or 1.1, header names
//   that are tokens and values with no CR, LF, NUL or other control byte except HTAB, and it
//   came from at most 8 KiB;
// - the small-limit parser (256 bytes, 4 fields) never returns more than its limits allow.

/// What the parser said after the last byte.
enum Outcome: Equatable {
  case head(HTTPRequestHead)
  case needMore
  case failed(HTTPParseError)
}

func run(_ pieces: [ArraySlice<UInt8>], _ parser: inout HTTPRequestParser) -> Outcome {
  var outcome = Outcome.needMore
  for piece in pieces {
    do {
      switch try parser.feed(piece) {
      case .complete(let head): outcome = .head(head)
      case .needMore: outcome = .needMore
      }
    } catch {
      return .failed(error)
    }
  }
  return outcome
}

func check(_ head: HTTPRequestHead, maxHeaderCount: Int) {
  invariant(HTTPSyntax.isToken(Array(head.method.utf8)), "method is not a token: \(head.method.debugDescription)")
  invariant(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target has unsafe bytes")
  invariant(head.minorVersion == 0 || head.minorVersion == 1, "minor version \(head.minorVersion)")
  invariant(head.headers.fields.count <= maxHeaderCount, "too many fields: \(head.headers.fields.count)")
  for (name, value) in head.headers {
    invariant(HTTPSyntax.isToken(Array(name.utf8)), "header name is not a token: \(name.debugDescription)")
    invariant(
      value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) },
      "control byte in value: \(value.debugDescription)")
    invariant(!value.hasPrefix(" ") && !value.hasSuffix(" "), "value not trimmed: \(value.debugDescription)")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  var random = SplitMix64(seed: SplitMix64.seed(input))

  var whole = HTTPRequestParser()
  let expected = run([input[...]], &whole)
  var split = HTTPRequestParser()
  let splitOutcome = run(randomSplits(input, &random), &split)
  invariant(splitOutcome == expected, "random splits gave \(splitOutcome), whole input gave \(expected)")
  if input.count <= 2048 {
    var single = HTTPRequestParser()
    let singleOutcome = run(input.map { [$0][...] }, &single)
    invariant(singleOutcome == expected, "byte-by-byte gave \(singleOutcome), whole input gave \(expected)")
  }
  if case .head(let head) = expected {
    check(head, maxHeaderCount: 100)
    // The head ended within the 8 KiB limit: its CRLF CRLF is somewhere in the first 8 KiB.
    let window = input.prefix(8 * 1024)
    invariant(
      window.indices.contains { window[$0...].starts(with: [0x0D, 0x0A, 0x0D, 0x0A]) },
      "head longer than 8 KiB accepted")
  }

  var small = HTTPRequestParser(maxHeadBytes: 256, maxHeaderCount: 4)
  if case .head(let head) = run(randomSplits(input, &random), &small) {
    check(head, maxHeaderCount: 4)
  }
  return 0
}
