/// Serializes requests (client side) and responses (loopback listener) as HTTP/1.1 bytes.
///
/// Every method, target, header name and value is checked before a single
/// byte is produced: names and methods must be `token`s, targets visible
/// ASCII, and values free of CR, LF, NUL and other control characters except
/// HTAB (R74), so nothing taken from a token, a host or user input can split
/// a line. The writer owns the framing fields: a caller's `Host`,
/// `Content-Length`, `Connection` and `Transfer-Encoding` are replaced.
enum HTTPWriter {
  /// Fields the writer sets itself; caller values for them are dropped.
  static let framingFields: Set<String> = ["host", "content-length", "connection", "transfer-encoding"]

  /// Methods that always carry `Content-Length`, even with an empty body.
  static let methodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

  /// `METHOD SP path-and-query SP HTTP/1.1`, `Host` from the URL's authority,
  /// the caller's fields, `User-Agent` if given and absent, `Content-Length`
  /// when there is a body (or for POST/PUT/PATCH), and `Connection: close`.
  package static func request(_ request: HTTPRequest, userAgent: String? = nil) throws(HTTPError) -> [UInt8] {
    guard HTTPSyntax.isToken(request.method.utf8) else { throw .invalidRequest(reason: "the method is not a token") }
    let target = request.url.pathAndQuery
    guard target.hasPrefix("/"), isVisibleASCII(target) else {
      throw .invalidRequest(reason: "the request target has a space or control character")
    }
    let authority = request.url.authority
    guard isVisibleASCII(authority) else { throw .invalidRequest(reason: "the host has a space or control character") }
    var headers = HTTPHeaders([("Host", authority)])
    for (name, value) in request.headers where !framingFields.contains(name.lowercased()) {
      headers.add(name, value)
    }
    if let userAgent, request.headers["User-Agent"] == nil { headers.add("User-Agent", userAgent) }
    if !request.body.isEmpty || methodsWithBody.contains(request.method) {
      headers.add("Content-Length", String(request.body.count))
    }
    headers.add("Connection", "close")
    return try serialize(startLine: "\(request.method) \(target) HTTP/1.1", headers: headers, body: request.body)
  }

  /// `CONNECT host:port HTTP/1.1` with `Host: host:port` and, when given, `Proxy-Authorization`.
  package static func connect(
    authority: String, proxyAuthorization: String?, userAgent: String?
  ) throws(HTTPError) -> [UInt8] {
    guard isVisibleASCII(authority) else { throw .invalidRequest(reason: "the host has a space or control character") }
    var headers = HTTPHeaders([("Host", authority)])
    if let userAgent { headers.add("User-Agent", userAgent) }
    if let proxyAuthorization { headers.add("Proxy-Authorization", proxyAuthorization) }
    return try serialize(startLine: "CONNECT \(authority) HTTP/1.1", headers: headers, body: [])
  }

  /// `HTTP/1.1 STATUS REASON`, the given fields, `Content-Length` and `Connection: close`.
  package static func response(status: Int, headers: HTTPHeaders, body: [UInt8]) throws(HTTPError) -> [UInt8] {
    guard (100...599).contains(status) else { throw .invalidRequest(reason: "the status is not 100 to 599") }
    var fields = HTTPHeaders()
    for (name, value) in headers where !framingFields.contains(name.lowercased()) { fields.add(name, value) }
    fields.add("Content-Length", String(body.count))
    fields.add("Connection", "close")
    return try serialize(startLine: "HTTP/1.1 \(status) \(reasonPhrase(status))", headers: fields, body: body)
  }

  /// The standard reason phrase for the statuses the listener sends, else "Status".
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 204: "No Content"
    case 302: "Found"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }

  private static func serialize(startLine: String, headers: HTTPHeaders, body: [UInt8]) throws(HTTPError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256 + body.count)
    out.append(contentsOf: startLine.utf8)
    out.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    for (name, value) in headers {
      guard HTTPSyntax.isToken(name.utf8) else { throw .invalidRequest(reason: "a header name is not a token") }
      guard value.utf8.allSatisfy(HTTPSyntax.isFieldValueByte) else {
        throw .invalidRequest(reason: "the value of header \(name) has a CR, LF, NUL or other control character")
      }
      out.append(contentsOf: name.utf8)
      out.append(contentsOf: ": ".utf8)
      out.append(contentsOf: value.utf8)
      out.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    }
    out.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    out.append(contentsOf: body)
    return out
  }

  private static func isVisibleASCII(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }
}
