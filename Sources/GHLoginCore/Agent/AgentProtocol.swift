/// One message of the ghlogin agent's protocol (doc/agent.md, "The protocol"), a request or an
/// answer: `key=value` lines ended by LF, like git's credential protocol, the first line
/// `ghlogin-agent=1`, the message ended by an empty line.
///
/// Stricter than git's, since both sides are ghlogin or a tool written to the page: a key is
/// 1 to ``maximumKeyLength`` of `a`–`z` and `_`, each key at most once, values valid UTF-8
/// without CR or NUL, at most ``maximumSize`` bytes and ``maximumLines`` lines. Anything else
/// refuses the whole message (``AgentProtocolError``), whose message names a line number and
/// never its content.
package struct AgentMessage: Sendable, Equatable {
  /// The protocol version this ghlogin speaks.
  package static let version = "1"
  /// The first line of every message, without its LF.
  package static let versionLine = ProductNames.agentProtocolKey + "=" + version
  /// The most bytes one message may have, its terminating empty line included (64 KiB).
  package static let maximumSize = 64 * 1024
  /// The most lines one message may have, the version line included, the empty line not.
  package static let maximumLines = 1_024
  /// The longest key.
  package static let maximumKeyLength = 32

  /// The fields after the version line, in their order.
  package private(set) var fields: [(key: String, value: String)]

  package init(_ fields: [(key: String, value: String)] = []) { self.fields = fields }

  package static func == (left: AgentMessage, right: AgentMessage) -> Bool {
    left.fields.elementsEqual(right.fields) { $0.key == $1.key && $0.value == $1.value }
  }

  /// The value of `key`, if the message has it.
  package subscript(key: String) -> String? { fields.first { $0.key == key }?.value }

  /// Adds `key=value` (nil: nothing).
  package mutating func append(_ key: String, _ value: String?) {
    guard let value else { return }
    fields.append((key, value))
  }

  /// Where the message in `bytes` ends: the index just past its empty line; nil while it has not
  /// ended yet. A reader stops reading there (or at ``maximumSize``). One that found no end in
  /// the first `start` bytes passes `start`: only what follows them is looked at.
  package static func end(in bytes: [UInt8], from start: Int = 0) -> Int? {
    if bytes.first == 0x0A { return 1 }  // an empty first line: refused by `parse`, but complete
    var index = max(1, start)
    while index < bytes.count {
      if bytes[index] == 0x0A && bytes[index - 1] == 0x0A { return index + 1 }
      index += 1
    }
    return nil
  }

  /// Parses one whole message: `bytes` must end with its empty line and hold nothing after it.
  package static func parse(_ bytes: [UInt8]) throws(AgentProtocolError) -> AgentMessage {
    guard bytes.count <= maximumSize else { throw .tooLarge }
    if let index = bytes.firstIndex(of: 0x00) { throw .nul(line: lineNumber(of: index, in: bytes)) }
    if let index = bytes.firstIndex(of: 0x0D) { throw .carriageReturn(line: lineNumber(of: index, in: bytes)) }
    guard let end = end(in: bytes) else {
      // Without its empty line: too many lines says more than "unterminated" when both hold.
      let lines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      if lines > maximumLines { throw .tooManyLines }
      throw .unterminated
    }
    guard end == bytes.count else { throw .trailingBytes }
    guard bytes.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) - 1 <= maximumLines else { throw .tooManyLines }
    guard UTF8Text.validated(bytes) != nil else { throw .invalidUTF8 }
    var message = AgentMessage()
    var seen: Set<String> = []
    var start = 0
    var line = 0
    while true {
      let stop = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
      line += 1
      if stop == start {  // the empty line; first, it leaves the version out
        if line == 1 { throw .missingVersion }
        break
      }
      let content = bytes[start..<stop]
      if line == 1 {
        guard let equals = content.firstIndex(of: UInt8(ascii: "=")),
          content[..<equals].elementsEqual(ProductNames.agentProtocolKey.utf8)
        else { throw .missingVersion }
        guard content[(equals + 1)...].elementsEqual(version.utf8) else { throw .unsupportedVersion }
      } else {
        guard let equals = content.firstIndex(of: UInt8(ascii: "=")) else { throw .missingEquals(line: line) }
        let key = content[..<equals]
        guard isKey(key) else { throw .badKey(line: line) }
        let name = String(decoding: key, as: UTF8.self)
        guard seen.insert(name).inserted else { throw .duplicateKey(line: line) }
        message.fields.append((name, String(decoding: content[(equals + 1)...], as: UTF8.self)))
      }
      start = stop + 1
    }
    return message
  }

  /// Whether `bytes` is a key: 1 to ``maximumKeyLength`` of `a`–`z` and `_`.
  static func isKey(_ bytes: ArraySlice<UInt8>) -> Bool {
    (1...maximumKeyLength).contains(bytes.count)
      && bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
  }

  /// Whether `value` can be sent: valid (it is a `String`), no LF, CR or NUL.
  package static func isValue(_ value: String) -> Bool {
    !value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
  }

  /// The message's bytes: the version line, the fields, the empty line. Throws
  /// ``AgentProtocolError/unencodable`` for a bad key or value, or a message over the limits.
  package func encoded() throws(AgentProtocolError) -> [UInt8] {
    var bytes = Array((Self.versionLine + "\n").utf8)
    var seen: Set<String> = []
    for (key, value) in fields {
      guard Self.isKey(ArraySlice(key.utf8)), Self.isValue(value), seen.insert(key).inserted else {
        throw .unencodable
      }
      bytes += key.utf8
      bytes.append(UInt8(ascii: "="))
      bytes += value.utf8
      bytes.append(0x0A)
    }
    bytes.append(0x0A)
    guard bytes.count <= Self.maximumSize, fields.count + 1 <= Self.maximumLines else { throw .unencodable }
    return bytes
  }

  /// The 1-based line holding byte `index`, for messages.
  private static func lineNumber(of index: Int, in bytes: [UInt8]) -> Int {
    bytes[..<index].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
  }
}

/// Why a message of the agent's protocol was refused as a whole. The text names a line number,
/// never what the line holds (a value may be a token); exit 2.
package enum AgentProtocolError: ReportableError, Equatable {
  case tooLarge
  case tooManyLines
  case unterminated
  case trailingBytes
  case nul(line: Int)
  case carriageReturn(line: Int)
  case invalidUTF8
  case missingVersion
  case unsupportedVersion
  case missingEquals(line: Int)
  case badKey(line: Int)
  case duplicateKey(line: Int)
  /// A request key the agent does not know.
  case unknownKey(line: Int)
  /// A request without `command`, or with one the agent does not know.
  case unknownCommand
  /// A field whose value the request's rules refuse (an empty host, a bad `for`, ...).
  case badValue(key: String)
  /// A message ghlogin was asked to write does not fit the protocol.
  case unencodable

  /// The reason alone, without "refused": also what the agent answers in `message=`.
  package var reason: String {
    switch self {
    case .tooLarge: "the message is larger than \(AgentMessage.maximumSize) bytes"
    case .tooManyLines: "the message has more than \(AgentMessage.maximumLines) lines"
    case .unterminated: "the message does not end with an empty line"
    case .trailingBytes: "bytes follow the empty line that ends the message"
    case .nul(let line): "line \(line) contains a NUL byte"
    case .carriageReturn(let line): "line \(line) contains a carriage return (CR)"
    case .invalidUTF8: "the message is not valid UTF-8"
    case .missingVersion: "the first line is not \(ProductNames.agentProtocolKey)=VERSION"
    case .unsupportedVersion: "the protocol version is not \(AgentMessage.version)"
    case .missingEquals(let line): "line \(line) is not of the form key=value"
    case .badKey(let line):
      "the key on line \(line) is not 1 to \(AgentMessage.maximumKeyLength) of the letters a-z and _"
    case .duplicateKey(let line): "the key on line \(line) was already given"
    case .unknownKey(let line): "the key on line \(line) is not one the agent knows"
    case .unknownCommand: "the command is missing or not one of get, info, ping, erase, forward, end, list"
    case .badValue(let key): "the value of \(key) is not valid"
    case .unencodable: "the message cannot be written in the agent's protocol"
    }
  }

  package var message: String { "the agent's protocol: refusing the message: \(reason)" }
  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}
