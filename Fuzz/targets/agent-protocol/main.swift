// Fuzz target: the ghlogin agent's protocol (Agent/AgentProtocol.swift, Agent/AgentRequest.swift):
// `AgentMessage.parse`, `AgentMessage.end(in:)`, `AgentRequest`, `AgentAnswer` and the writer.
//
// Input: the bytes a client (or a peer in a container) writes to the agent's socket. Invariants:
// - `AgentMessage.parse` agrees with an independent byte-level reading of doc/agent.md's format:
//   at most 65,536 bytes; no NUL or CR anywhere; valid UTF-8; ends at its first empty line with
//   nothing after it; first line exactly `ghlogin-agent=1`; at most 1,024 lines before the empty
//   one; every other line `key=value` with a key of 1–32 `a`–`z`/`_`, each key once. Both accept
//   the same inputs and give the same fields in the same order;
// - `end(in:)` is the index just past the first empty line (nil when there is none);
// - what parses re-encodes to exactly the input (the format has one spelling);
// - a refusal's message is terminal-safe and one of the parser's fixed texts, only a line number
//   varying: it quotes nothing of the input (a value may be a token);
// - a request or answer read from a message encodes and parses back to itself; an answer's
//   secret appears in its encoding only on the `secret=` line.

/// The reference reading: the fields, or nil when the input must be refused.
func reference(_ bytes: [UInt8]) -> [(String, String)]? {
  guard bytes.count <= 65_536, !bytes.contains(0x00), !bytes.contains(0x0D),
    String(validating: bytes, as: UTF8.self) != nil
  else { return nil }
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  // The message must be lines each ended by LF, the last of them empty, then nothing.
  guard bytes.last == 0x0A else { return nil }
  lines.removeLast()  // what follows the final LF: nothing
  guard let empty = lines.firstIndex(where: { $0.isEmpty }), empty == lines.count - 1 else { return nil }
  let content = lines.dropLast()
  guard content.count <= 1_024, let first = content.first, Array(first) == Array("ghlogin-agent=1".utf8) else {
    return nil
  }
  var fields: [(String, String)] = []
  var keys: Set<[UInt8]> = []
  for line in content.dropFirst() {
    guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
    let key = Array(line[..<equals])
    guard (1...32).contains(key.count), key.allSatisfy({ (0x61...0x7A).contains($0) || $0 == 0x5F }),
      keys.insert(key).inserted
    else { return nil }
    fields.append((String(decoding: key, as: UTF8.self), String(decoding: line[(equals + 1)...], as: UTF8.self)))
  }
  return fields
}

func withoutDigits(_ text: String) -> String { String(text.filter { !$0.isNumber }) }

/// Every refusal `AgentMessage.parse` can give, without its digits.
let templates: Set<String> = Set(
  [
    AgentProtocolError.tooLarge, .tooManyLines, .unterminated, .trailingBytes, .nul(line: 1), .carriageReturn(line: 1),
    .invalidUTF8, .missingVersion, .unsupportedVersion, .missingEquals(line: 1), .badKey(line: 1),
    .duplicateKey(line: 1),
  ].map { withoutDigits($0.message) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  let expected = reference(input)

  var firstEmpty: Int?
  var index = 0
  while index < input.count {
    if input[index] == 0x0A && (index == 0 || input[index - 1] == 0x0A) {
      firstEmpty = index + 1
      break
    }
    index += 1
  }
  invariant(AgentMessage.end(in: input) == firstEmpty, "end(in:) disagrees")

  let message: AgentMessage
  do {
    message = try AgentMessage.parse(input)
  } catch {
    invariant(expected == nil, "refused what the format allows: \(error.message)")
    invariant(isTerminalSafe(error.message), "unsafe message")
    // The text is one of the fixed templates: only a line number or a count varies.
    invariant(templates.contains(withoutDigits(error.message)), "the message is not a fixed template")
    return 0
  }
  guard let expected else {
    invariant(false, "accepted what the format refuses")
    return 0
  }
  invariant(
    message.fields.elementsEqual(expected) { $0.key == $1.0 && $0.value == $1.1 }, "fields differ from the reference")
  do {
    let encoded = try message.encoded()
    invariant(encoded == input, "re-encoding differs")
  } catch {
    invariant(false, "a parsed message does not encode: \(error.message)")
  }

  if let request = try? AgentRequest(message) {
    do {
      let back = try AgentRequest.parse(request.fields.encoded())
      invariant(back == request, "request does not read back")
    } catch {
      invariant(false, "a request does not encode: \(error.message)")
    }
  }
  if var answer = try? AgentAnswer(message) {
    let secret = "ghu_fuzzSECRETfuzz"
    answer.secret = secret
    if let encoded = try? answer.fields.encoded() {
      let back = try? AgentAnswer.parse(encoded)
      invariant(back == answer, "answer does not read back")
      let elsewhere = [answer.host, answer.login, answer.message].contains { $0?.contains(secret) ?? false }
      for line in encoded.split(separator: 0x0A) where !line.starts(with: Array("secret=".utf8)) {
        invariant(elsewhere || !String(decoding: line, as: UTF8.self).contains(secret), "secret outside secret=")
      }
    }
  }
  return 0
}
