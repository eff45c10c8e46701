/// Why bytes are not an HTTP/1.1 message ghlogin accepts: one case per rule.
///
/// The parsers throw these; ``HTTPClient`` wraps them in ``HTTPError`` with the
/// host they came from, and ``LoopbackServer`` maps them to 400 or 431.
/// `description` names the rule and never quotes the offending bytes.
package enum HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The start line and header fields together exceed the limit in bytes.
  case headersTooLarge(limit: Int)
  /// More header (or trailer) fields than the limit.
  case tooManyHeaders(limit: Int)
  /// The body exceeds the limit in bytes (declared or received).
  case bodyTooLarge(limit: Int)
  /// The connection closed before the message was complete.
  case truncated
  /// The connection closed before a single byte arrived.
  case noResponse
  /// The request line or status line does not have the required shape.
  case invalidStartLine
  /// The protocol version is not `HTTP/1.0` or `HTTP/1.1`.
  case unsupportedVersion
  /// A CR not followed by LF, or an LF not preceded by CR.
  case bareLineEnding
  /// A NUL byte in the head.
  case nulByte
  /// A header line starting with a space or tab (obsolete line folding).
  case obsoleteLineFolding
  /// A header name that is empty or has a character outside `token`.
  case invalidHeaderName
  /// A header value with a control character.
  case invalidHeaderValue
  /// A `Content-Length` that is not a plain decimal number.
  case invalidContentLength
  /// Two `Content-Length` values that differ.
  case conflictingContentLength
  /// Both `Transfer-Encoding` and `Content-Length`.
  case contentLengthWithTransferEncoding
  /// A `Transfer-Encoding` other than exactly `chunked`.
  case unsupportedTransferEncoding
  /// A chunk-size line that is not strict hexadecimal (with optional extensions).
  case invalidChunkSize
  /// Chunk data not followed by CRLF.
  case invalidChunkFraming
  /// A 1xx response other than `100 Continue`.
  case unexpectedInformational(status: Int)
  /// Bytes where none may be (after a proxy's CONNECT answer, before TLS).
  case unexpectedData

  package var description: String {
    switch self {
    case .headersTooLarge(let limit): "the header section is larger than \(limit) bytes"
    case .tooManyHeaders(let limit): "more than \(limit) header fields"
    case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
    case .truncated: "the connection closed before the message was complete"
    case .noResponse: "the connection closed without a response"
    case .invalidStartLine: "the first line is not a valid HTTP start line"
    case .unsupportedVersion: "the HTTP version is not HTTP/1.0 or HTTP/1.1"
    case .bareLineEnding: "a bare CR or LF in the header section"
    case .nulByte: "a NUL byte in the header section"
    case .obsoleteLineFolding: "a folded header line"
    case .invalidHeaderName: "an invalid header name"
    case .invalidHeaderValue: "a control character in a header value"
    case .invalidContentLength: "an invalid Content-Length"
    case .conflictingContentLength: "conflicting Content-Length values"
    case .contentLengthWithTransferEncoding: "both Transfer-Encoding and Content-Length"
    case .unsupportedTransferEncoding: "a Transfer-Encoding other than chunked"
    case .invalidChunkSize: "an invalid chunk size"
    case .invalidChunkFraming: "chunk data not followed by CRLF"
    case .unexpectedInformational(let status): "an unexpected informational status \(status)"
    case .unexpectedData: "unexpected bytes after the end of the message"
    }
  }
}

/// What feeding bytes to a parser produced.
enum HTTPParseResult<Message: Sendable>: Sendable {
  /// The message is not complete yet: feed more bytes (or call `finish()` at EOF).
  case needMore
  /// The whole message.
  case complete(Message)
}
