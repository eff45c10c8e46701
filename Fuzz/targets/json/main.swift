// Fuzz target: the JSON parser and writer (Support/JSON.swift, JSONParser.swift, JSONWriter.swift).
//
// Input: any bytes. Invariants for every value `parse` accepts:
// - serialize, compact and pretty, parses back to an equal value;
// - serialization is a fixed point: serialize(parse(serialize(v))) == serialize(v);
// - the output is ASCII-safe where it must be: no raw control character inside it except the
//   pretty form's newlines;
// - `intValue` and `doubleValue` agree with the literal where both exist.
// A refusal names a line and column within the input, and its reason is terminal-safe (a
// duplicated key is quoted escaped).

func check(_ value: JSONValue) {
  if case .number(let text) = value, let integer = value.intValue {
    invariant(String(integer) == text || text.hasPrefix("-0") || text == "0", "intValue \(integer) for \(text)")
    if let double = value.doubleValue, integer.magnitude < (1 << 53) {
      invariant(Double(integer) == double, "int/double")
    }
  }
  switch value {
  case .array(let elements): elements.forEach(check)
  case .object(let object): object.entries.forEach { check($0.value) }
  default: break
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  let value: JSONValue
  do {
    value = try JSON.parse(input)
  } catch {
    let lines = input.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    invariant(error.line >= 1 && error.line <= lines && error.column >= 1, "position \(error.line):\(error.column)")
    invariant(isTerminalSafe(error.reason), "unsafe reason: \(error.reason.debugDescription)")
    return 0
  }
  check(value)
  for pretty in [false, true] {
    let text = JSON.serialize(value, pretty: pretty)
    invariant(
      !text.utf8.contains { ($0 < 0x20 && !(pretty && $0 == 0x0A)) || $0 == 0x7F }, "raw control byte in the output")
    let again: JSONValue
    do {
      again = try JSON.parse(text)
    } catch {
      invariant(false, "serialized JSON does not parse (\(error)): \(text.debugDescription)")
      return 0
    }
    invariant(again == value, "round trip changed the value: \(text.debugDescription)")
    invariant(JSON.serialize(again, pretty: pretty) == text, "serialize is not a fixed point")
  }
  return 0
}
