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
// The deferred read of a credentials file (`JSONParser.parseDocument(deferring:)`, which steps
// over the other hosts' entries) with the input as one host's entry refuses what the whole parse
// refuses, at the same position with the same message (a duplicate key inside the entry aside),
// and where it accepts, the entry's bytes are exactly the input's.

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

func checkDeferredRead(_ input: [UInt8]) {
  let document = Array(#"{"hosts": {"a": "#.utf8) + input + Array(#", "b": {}}}"#.utf8)
  var whole: Result<JSONValue, JSONError>
  do { whole = .success(try JSON.parse(document)) } catch { whole = .failure(error) }
  document.withUnsafeBufferPointer { buffer in
    var parser = JSONParser(buffer: buffer)
    let members: JSONDeferredMembers
    do throws(JSONError) {
      members = try parser.parseDocument(deferring: "hosts").members!
    } catch {
      // A duplicate key inside an entry is found only when the entry is built: the deferred read
      // then goes on, and may accept or stop at a later fault.
      guard case .failure(let refusal) = whole else {
        invariant(false, "the deferred read refused what the whole parse accepted: \(error)")
        return
      }
      invariant(refusal == error || refusal.reason.hasPrefix("duplicate key"), "deferred: \(error), whole: \(refusal)")
      return
    }
    guard case .success(let value) = whole else {
      if case .failure(let refusal) = whole {
        invariant(refusal.reason.hasPrefix("duplicate key"), "deferred read accepted: \(refusal)")
      }
      return
    }
    let hosts = value.objectValue?["hosts"]?.objectValue
    let keys = members.keys(in: buffer)
    invariant(keys == hosts?.keys, "deferred keys")
    for (index, key) in keys.enumerated() {
      invariant(members.index(of: key, in: buffer) == index, "deferred index of \(key)")
      let range = members.values[index]
      invariant((try? parser.parseValue(at: range)) == hosts?[key], "deferred value of \(key)")
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  checkDeferredRead(input)
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
