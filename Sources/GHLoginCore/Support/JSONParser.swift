/// The members of an object whose values ``JSONParser/parseDocument(deferring:)`` checked but
/// did not build: each member's name, and where its value is in the input. A name is kept as
/// where its bytes are while every name is plain (printable ASCII without escapes, as every host
/// name ghlogin writes), so a file of many hosts makes no string per host; from the first name
/// that is not, every name is decoded. Arrays of element types the standard library
/// prespecializes (`Range<Int>`, `String`), so no array type is made at run time.
struct JSONDeferredMembers: Sendable {
  /// Where each name's bytes are (between its quotes), in order.
  private(set) var nameBytes: [Range<Int>] = []
  /// Every name, decoded, once one of them is not plain; nil while all are.
  private(set) var decodedNames: [String]?
  /// Where each value is: `values[i]`, the bytes of the value of the `i`th name.
  package private(set) var values: [Range<Int>] = []

  var count: Int { values.count }

  /// The names in order, decoded from `buffer` (the input the parser read).
  package func keys(in buffer: UnsafeBufferPointer<UInt8>) -> [String] {
    decodedNames ?? nameBytes.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
  }

  /// The index of the member named `name` (matched by its bytes: a name of the same length as
  /// an ASCII one is the same bytes, as no other character is canonically equivalent to an
  /// ASCII one of its length); nil when there is none.
  package func index(of name: String, in buffer: UnsafeBufferPointer<UInt8>) -> Int? {
    if let decodedNames {
      return decodedNames.firstIndex { $0.utf8.count == name.utf8.count && $0 == name }
    }
    var name = name
    return name.withUTF8 { wanted in
      nameBytes.firstIndex { range in
        range.count == wanted.count && (0..<wanted.count).allSatisfy { buffer[range.lowerBound + $0] == wanted[$0] }
      }
    }
  }

  fileprivate mutating func append(plainName bytes: Range<Int>, value: Range<Int>) {
    nameBytes.append(bytes)
    values.append(value)
  }

  /// A name that is not plain: from here on, every name is kept decoded.
  fileprivate mutating func append(
    name: String, bytes: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>, value: Range<Int>
  ) {
    if decodedNames == nil { decodedNames = keys(in: buffer) }
    decodedNames?.append(name)
    nameBytes.append(bytes)
    values.append(value)
  }
}

/// The recursive-descent parser behind ``JSON/parse(_:)-(Collection<UInt8>)``.
///
/// Works on the raw bytes so that invalid UTF-8 is found and reported at its position instead of
/// being replaced by U+FFFD. Recursion is bounded by ``JSON/maximumDepth``.
///
/// It reads the input through a buffer pointer (no bounds check or reference count per byte),
/// so a parser must not outlive the `withUnsafeBufferPointer` call that gave it its buffer.
package struct JSONParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private var depth = 0
  /// The top-level key whose object's members are checked but not built (``parseDocument(deferring:)``).
  private var deferredKey: String?
  /// That object's members: each key and where its value is in the input.
  private var deferredMembers: JSONDeferredMembers?

  package init(buffer: UnsafeBufferPointer<UInt8>) { self.bytes = buffer }

  /// ``parseDocument()``, except that when the top level is an object whose member `key` is an
  /// object, that object's members are checked (syntax, nesting, UTF-8, duplicate member names)
  /// but their values are not built: the document has an empty object there, and `members`
  /// names each member and where its value is, for ``parseValue(at:)``. Duplicate keys inside
  /// those values are found only when one is parsed.
  mutating func parseDocument(
    deferring key: String
  ) throws(JSONError) -> (document: JSONValue, members: JSONDeferredMembers?) {
    deferredKey = key
    defer { deferredKey = nil }
    let document = try parseDocument()
    return (document, deferredMembers)
  }

  /// The value at `bytes` (one of the ``JSONDeferredMembers/values`` that
  /// ``parseDocument(deferring:)`` gave), fully checked as ``parseDocument()`` checks it; errors
  /// name their position in the whole input.
  mutating func parseValue(at bytes: Range<Int>) throws(JSONError) -> JSONValue {
    position = bytes.lowerBound
    depth = 2
    return try parseValue()
  }

  /// Parses the whole input as one value with optional whitespace around it.
  mutating func parseDocument() throws(JSONError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw error("a byte-order mark is not allowed") }
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position < bytes.count { throw error("unexpected \(describe(position)) after the JSON value") }
    return value
  }

  // MARK: - Values

  private mutating func parseValue() throws(JSONError) -> JSONValue {
    guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    case UInt8(ascii: "/"): throw error("comments are not allowed")
    default: throw error("unexpected \(describe(position)), expected a value")
    }
  }

  /// Steps into the array or object whose opening byte is at `position` (one level deeper, at
  /// most ``JSON/maximumDepth``); true when it closes at once (`[]`, `{}`), stepped over too.
  private mutating func entersEmptyContainer(_ close: UInt8) throws(JSONError) -> Bool {
    depth += 1
    if depth > JSON.maximumDepth {
      throw error("arrays and objects are nested deeper than \(JSON.maximumDepth) levels")
    }
    position += 1
    skipWhitespace()
    guard peek(close) else { return false }
    position += 1
    depth -= 1
    return true
  }

  private mutating func parseObject() throws(JSONError) -> JSONValue {
    var object = JSONObject()
    if try entersEmptyContainer(UInt8(ascii: "}")) { return .object(object) }
    // Duplicate keys are found by a scan of the keys so far while the object is small (every
    // object ghlogin reads on `token`'s path, where a Set costs more than the scan), and by a
    // Set from the 16th key on, so a hostile object with many keys stays linear.
    var seen: Set<String>?
    while true {
      skipWhitespace()
      try expectKey(afterMember: !object.isEmpty)
      let keyStart = position
      let key = try parseString()
      let duplicate: Bool
      if seen == nil && object.count < 16 {
        duplicate = object.keys.contains(key)
      } else {
        if seen == nil { seen = Set(object.keys) }
        duplicate = seen?.insert(key).inserted == false
      }
      guard !duplicate else {
        position = keyStart
        throw error("duplicate key \"\(Sanitize.escaped(key))\"")
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describe(position)), expected ':'") }
      position += 1
      skipWhitespace()
      let value: JSONValue
      if depth == 1, deferredMembers == nil, let deferredKey, key == deferredKey, peek(UInt8(ascii: "{")) {
        deferredMembers = try parseDeferredMembers()
        value = .object(JSONObject())
      } else {
        value = try parseValue()
      }
      object.append(key: key, value: value)
      if try closesContainer(UInt8(ascii: "}")) { return .object(object) }
    }
  }

  private mutating func parseArray() throws(JSONError) -> JSONValue {
    var elements: [JSONValue] = []
    if try entersEmptyContainer(UInt8(ascii: "]")) { return .array(elements) }
    while true {
      skipWhitespace()
      if peek(UInt8(ascii: "]")) && !elements.isEmpty { throw error("trailing comma before ]") }
      elements.append(try parseValue())
      if try closesContainer(UInt8(ascii: "]")) { return .array(elements) }
    }
  }

  /// Checks that a key's opening `"` is at `position` (after the whitespace); `afterMember`:
  /// an object's member came before it, so a `}` there follows a trailing comma.
  private func expectKey(afterMember: Bool) throws(JSONError) {
    guard position < bytes.count else { throw error("unexpected end of input, expected a key") }
    guard bytes[position] == UInt8(ascii: "\"") else {
      if bytes[position] == UInt8(ascii: "}") && afterMember { throw error("trailing comma before }") }
      if bytes[position] == UInt8(ascii: "/") { throw error("comments are not allowed") }
      throw error("unexpected \(describe(position)), expected a key in double quotes")
    }
  }

  /// After a member or an element: steps over the whitespace, then over `,` (false: another
  /// one follows) or the container's `close` (true: the container ended, one level up).
  private mutating func closesContainer(_ close: UInt8) throws(JSONError) -> Bool {
    skipWhitespace()
    guard position < bytes.count else {
      throw error("unexpected end of input, expected ',' or '\(Unicode.Scalar(close))'")
    }
    switch bytes[position] {
    case UInt8(ascii: ","):
      position += 1
      return false
    case close:
      position += 1
      depth -= 1
      return true
    case UInt8(ascii: "/"): throw error("comments are not allowed")
    default: throw error("unexpected \(describe(position)), expected ',' or '\(Unicode.Scalar(close))'")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
    guard let end = literalEnd(literal, at: position) else { throw error("invalid literal, expected '\(literal)'") }
    position = end
  }

  /// The end of `literal` when the input has it at `start`; nil otherwise.
  @inline(__always)
  private func literalEnd(_ literal: StaticString, at start: Int) -> Int? {
    let length = literal.utf8CodeUnitCount
    guard start + length <= bytes.count else { return nil }
    for offset in 0..<length where bytes[start + offset] != literal.utf8Start[offset] { return nil }
    return start + length
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as its text.
  private mutating func parseNumber() throws(JSONError) -> String {
    let start = position
    try scanNumber()
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  /// Steps over a number, refusing what ``parseNumber()`` refuses.
  private mutating func scanNumber() throws(JSONError) {
    let (end, refusal) = numberEnd(at: position)
    position = end
    if let refusal { throw error("\(refusal.reason)") }
  }

  /// The members of the object at `position`, each value checked by ``skipValue()``; the
  /// member names are checked for duplicates as ``parseObject()`` does.
  private mutating func parseDeferredMembers() throws(JSONError) -> JSONDeferredMembers {
    var members = JSONDeferredMembers()
    if try entersEmptyContainer(UInt8(ascii: "}")) { return members }
    // While every name is plain, duplicates are found on the names' bytes: by a scan of the
    // names so far for the first sixteen, then by an open-addressing table of their indexes
    // (``findOrInsert(_:hash:index:in:_:)``). From the first name that is not plain (compared
    // by canonical equivalence: KELVIN SIGN is `K`), or after a long run of colliding hashes,
    // by a set of all the names.
    var seen: Set<String>?
    var slots: [Int] = []
    while true {
      skipWhitespace()
      try expectKey(afterMember: members.count > 0)
      let keyStart = position
      var duplicate: Bool?
      if seen == nil, members.decodedNames == nil, let end = plainStringEnd(at: position) {
        let name = position + 1..<end - 1
        position = end
        if members.count < 16 {
          duplicate = members.nameBytes.contains { sameBytes($0, name) }
        } else {
          if slots.count < 2 * (members.count + 1) { slots = memberSlots(members.nameBytes) ?? [] }
          if !slots.isEmpty {
            duplicate = findOrInsert(name, hash: hash(name), index: members.count, in: &slots, members.nameBytes)
          }
        }
        if duplicate == nil {
          // A long run of colliding hashes: a set of every name from here on.
          var names = Set(members.keys(in: bytes))
          duplicate = !names.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self))
            .inserted
          seen = names
        }
        try checkMember(duplicate: duplicate == true, at: keyStart)
        members.append(plainName: name, value: try memberValue())
      } else {
        let key = try parseString()
        if seen == nil { seen = Set(members.keys(in: bytes)) }
        try checkMember(duplicate: seen?.insert(key).inserted == false, at: keyStart, decoded: key)
        slots = []
        members.append(name: key, bytes: keyStart + 1..<position - 1, in: bytes, value: try memberValue())
      }
      if try closesContainer(UInt8(ascii: "}")) { return members }
    }
  }

  /// Refuses a member whose name (at `keyStart`; `decoded`, or plain bytes to read) is a
  /// duplicate, and steps over the `:`.
  private mutating func checkMember(duplicate: Bool, at keyStart: Int, decoded: String? = nil) throws(JSONError) {
    guard !duplicate else {
      let end = position
      position = keyStart
      let name =
        decoded ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart + 1..<end - 1]), as: UTF8.self)
      throw error("duplicate key \"\(Sanitize.escaped(name))\"")
    }
    skipWhitespace()
    guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describe(position)), expected ':'") }
    position += 1
    skipWhitespace()
  }

  /// Steps over the member value at `position` and says where it was.
  private mutating func memberValue() throws(JSONError) -> Range<Int> {
    let valueStart = position
    if !skipPlainValue() { try skipValue() }
    return valueStart..<position
  }

  /// Whether the input's bytes at `a` and `b` are the same.
  private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    guard a.count == b.count else { return false }
    for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
    return true
  }

  /// FNV-1a of the input's bytes at `range`.
  private func hash(_ range: Range<Int>) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for index in range { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01B3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 29))
  }

  /// An open-addressing table (a power of two, at most a quarter full) of the indexes plus one
  /// of the distinct `names`; nil when a name takes too many probes.
  private func memberSlots(_ names: [Range<Int>]) -> [Int]? {
    var count = 64
    while count < 4 * (names.count + 1) { count *= 2 }
    var slots = [Int](repeating: 0, count: count)
    for (index, name) in names.enumerated() {
      guard findOrInsert(name, hash: hash(name), index: index, in: &slots, names) != nil else { return nil }
    }
    return slots
  }

  /// Whether the name at `name` is in `slots` already; if not, `index` is recorded for it. Nil
  /// after 32 probes: the caller then checks the names with a `Set` (hashes made to collide
  /// cannot make the check quadratic).
  private func findOrInsert(
    _ name: Range<Int>, hash: Int, index: Int, in slots: inout [Int], _ names: [Range<Int>]
  ) -> Bool? {
    let mask = slots.count - 1
    var slot = hash & mask
    for _ in 0..<32 {
      let entry = slots[slot]
      if entry == 0 {
        slots[slot] = index + 1
        return false
      }
      if sameBytes(names[entry - 1], name) { return true }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Steps over one value, refusing what ``parseValue()`` refuses, except duplicate keys: no
  /// strings, arrays or objects are built.
  private mutating func skipValue() throws(JSONError) {
    guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): try skipContainer(close: UInt8(ascii: "}"), keyed: true)
    case UInt8(ascii: "["): try skipContainer(close: UInt8(ascii: "]"), keyed: false)
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
    case UInt8(ascii: "/"): throw error("comments are not allowed")
    default: throw error("unexpected \(describe(position)), expected a value")
    }
  }

  /// Steps over the value at `position` and returns true when it is plain: strings of printable
  /// ASCII without escapes, numbers, literals, and arrays and objects of those within the depth
  /// limit (every value ghlogin writes). For anything else, valid or not, it returns false with
  /// `position` unchanged, and ``skipValue()`` checks the value with its messages. One loop with
  /// the open containers as bits (``JSON/maximumDepth`` is 64), no call or throw per token: the
  /// other hosts' entries of a file with many hosts are stepped over at a few instructions a byte.
  private mutating func skipPlainValue() -> Bool {
    enum Next { case value, key, separator }
    let count = bytes.count
    var index = position
    var next = Next.value
    var objects: UInt64 = 0  // bit n: the container at level n is an object
    var level = 0
    while true {
      if next == .separator && level == 0 {
        position = index
        return true
      }
      index = whitespaceEnd(from: index)
      guard index < count else { return false }
      var byte = bytes[index]
      switch next {
      case .key:
        guard byte == UInt8(ascii: "\""), let end = plainStringEnd(at: index) else { return false }
        index = whitespaceEnd(from: end)
        guard index < count, bytes[index] == UInt8(ascii: ":") else { return false }
        // The member's value, in this round: no pass through the loop's top between the two.
        index = whitespaceEnd(from: index + 1)
        guard index < count else { return false }
        byte = bytes[index]
        fallthrough
      case .value:
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard depth + level < JSON.maximumDepth else { return false }
          let isObject = byte == UInt8(ascii: "{")
          objects = isObject ? objects | 1 << level : objects & ~(1 << level)
          level += 1
          index = whitespaceEnd(from: index + 1)
          if index < count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            index += 1
            level -= 1
            next = .separator
          } else {
            next = isObject ? .key : .value
          }
        case UInt8(ascii: "\""):
          guard let end = plainStringEnd(at: index) else { return false }
          index = end
          next = .separator
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          let (end, refusal) = numberEnd(at: index)
          guard refusal == nil else { return false }
          index = end
          next = .separator
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
          let literal: StaticString = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
          guard let end = literalEnd(literal, at: index) else { return false }
          index = end
          next = .separator
        default:
          return false
        }
      case .separator:
        let inObject = objects >> (level - 1) & 1 == 1
        if byte == UInt8(ascii: ",") {
          next = inObject ? .key : .value
        } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          level -= 1
        } else {
          return false
        }
        index += 1
      }
    }
  }

  /// The end (after the closing `"`) of the string whose `"` is at `start` when all of it is
  /// printable ASCII without `\`; nil otherwise.
  @inline(__always)
  private func plainStringEnd(at start: Int) -> Int? {
    let end = plainRunEnd(from: start + 1)
    return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? end + 1 : nil
  }

  /// The end of the number that starts at `start`, by the grammar
  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; when it is refused, where and why.
  @inline(__always)
  private func numberEnd(at start: Int) -> (end: Int, refusal: NumberRefusal?) {
    let count = bytes.count
    var index = start
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count, isDigit(bytes[index]) else { return (index, .noDigitAfterMinus) }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < count && isDigit(bytes[index]) { return (index, .leadingZero) }
    } else {
      index = digitsEnd(from: index)
    }
    if index < count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < count, isDigit(bytes[index]) else {
        return (index, .noDigitAfterPoint)
      }
      index = digitsEnd(from: index)
    }
    if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
      guard index < count, isDigit(bytes[index]) else {
        return (index, .noDigitInExponent)
      }
      index = digitsEnd(from: index)
    }
    return (index, nil)
  }

  /// Why ``numberEnd(at:)`` refused a number: one byte, so the pair it returns stays in
  /// registers on the loop that steps over the other hosts' entries.
  private enum NumberRefusal: UInt8 {
    case noDigitAfterMinus, leadingZero, noDigitAfterPoint, noDigitInExponent

    var reason: String {
      switch self {
      case .noDigitAfterMinus: "expected a digit after '-'"
      case .leadingZero: "numbers must not have leading zeros"
      case .noDigitAfterPoint: "expected a digit after the decimal point"
      case .noDigitInExponent: "expected a digit in the exponent"
      }
    }
  }

  /// An object (`keyed`) or array at `position`, checked as ``parseObject()`` and
  /// ``parseArray()`` check them, with the same messages, except for duplicate keys.
  private mutating func skipContainer(close: UInt8, keyed: Bool) throws(JSONError) {
    if try entersEmptyContainer(close) { return }
    var empty = true
    while true {
      skipWhitespace()
      if keyed {
        try expectKey(afterMember: !empty)
        try skipString()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describe(position)), expected ':'") }
        position += 1
        skipWhitespace()
      } else if peek(UInt8(ascii: "]")) && !empty {
        throw error("trailing comma before ]")
      }
      try skipValue()
      empty = false
      if try closesContainer(close) { return }
    }
  }

  /// A quoted string at `"`, checked as ``parseString()`` checks it, without building it.
  private mutating func skipString() throws(JSONError) {
    position += 1
    while true {
      position = plainRunEnd(from: position)
      guard position < bytes.count else { throw error("unexpected end of input inside a string") }
      switch bytes[position] {
      case UInt8(ascii: "\""):
        position += 1
        return
      case UInt8(ascii: "\\"):
        var scratch: [UInt8] = []
        try parseEscape(into: &scratch)
      case 0x00..<0x20:
        throw error("control character \(describe(position)) in a string; escape it")
      case 0x20..<0x80:
        position += 1
      default:
        try skipUTF8Sequence()
      }
    }
  }

  // MARK: - Strings

  /// Parses a quoted string starting at `"`, validating UTF-8 and escapes.
  private mutating func parseString() throws(JSONError) -> String {
    position += 1
    var buffer: [UInt8] = []
    var runStart = position
    while true {
      position = plainRunEnd(from: position)
      guard position < bytes.count else { throw error("unexpected end of input inside a string") }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        defer { position += 1 }
        // No escape (nearly every string): decoded from the input directly, without the buffer
        // (an allocation and a copy for each string of a credentials file with many hosts).
        if buffer.isEmpty {
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self)
        }
        buffer.append(contentsOf: bytes[runStart..<position])
        return String(decoding: buffer, as: UTF8.self)
      case UInt8(ascii: "\\"):
        buffer.append(contentsOf: bytes[runStart..<position])
        try parseEscape(into: &buffer)
        runStart = position
      case 0x00..<0x20:
        throw error("control character \(describe(position)) in a string; escape it")
      case 0x20..<0x80:
        position += 1
      default:
        try skipUTF8Sequence()
      }
    }
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONError) {
    position += 1
    guard position < bytes.count else { throw error("unexpected end of input inside a string") }
    let simple: UInt8? =
      switch bytes[position] {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case UInt8(ascii: "/"): UInt8(ascii: "/")
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      buffer.append(simple)
      position += 1
      return
    }
    guard bytes[position] == UInt8(ascii: "u") else {
      position -= 1
      throw error("invalid escape sequence")
    }
    let escapeStart = position - 1
    let first = try parseHex4()
    var scalarValue = UInt32(first)
    if (0xDC00...0xDFFF).contains(first) {
      position = escapeStart
      throw error("lone low surrogate \\u escape")
    }
    if (0xD800...0xDBFF).contains(first) {
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
      else {
        position = escapeStart
        throw error("high surrogate \\u escape not followed by a low surrogate")
      }
      position += 1
      let second = try parseHex4()
      guard (0xDC00...0xDFFF).contains(second) else {
        position = escapeStart
        throw error("high surrogate \\u escape not followed by a low surrogate")
      }
      scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(scalarValue) else {
      position = escapeStart
      throw error("invalid \\u escape")
    }
    buffer.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
  }

  /// Reads `uXXXX` (position on the `u`) and returns the 16-bit value.
  private mutating func parseHex4() throws(JSONError) -> UInt16 {
    let start = position - 1
    position += 1
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard position < bytes.count, let digit = hexValue(bytes[position]) else {
        position = start
        throw error("invalid \\u escape: expected four hex digits")
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  /// Steps over one well-formed multi-byte UTF-8 sequence (Unicode Table 3-7), or throws.
  private mutating func skipUTF8Sequence() throws(JSONError) {
    let lead = bytes[position]
    let (length, secondRange): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0x80...0xBF)
      }
    guard length > 0 else { throw error("invalid UTF-8") }
    for offset in 1..<length {
      let range = offset == 1 ? secondRange : 0x80...0xBF
      guard position + offset < bytes.count, range.contains(bytes[position + offset]) else {
        throw error("invalid UTF-8")
      }
    }
    position += length
  }

  // MARK: - Helpers

  private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// The end of the run of digits that starts at `start`.
  @inline(__always)
  private func digitsEnd(from start: Int) -> Int {
    var index = start
    let count = bytes.count
    // Eight bytes at a time (a timestamp's ten digits are two words): a byte is a digit when
    // its high nibble is 3 and stays 3 with 6 added. A carry out of a byte at or above 0xFA
    // can flag the byte after it, never one before, so the first flagged byte ends the run.
    if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
      let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
      let threes: UInt64 = 0x3030_3030_3030_3030
      while count &- index >= 8 {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let others = (word & high ^ threes) | ((word &+ 0x0606_0606_0606_0606) & high ^ threes)
        if others != 0 { return index + others.trailingZeroBitCount / 8 }
        index &+= 8
      }
    }
    while index < count && bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    return index
  }

  private mutating func skipWhitespace() { position = whitespaceEnd(from: position) }

  /// The end of the run of JSON whitespace that starts at `start` (a local index: the caller
  /// stores its position once, not on every byte of an indentation).
  @inline(__always)
  private func whitespaceEnd(from start: Int) -> Int {
    var index = start
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      index += 1
      if byte == 0x20 { continue }
      if byte == 0x0A {
        // After a line break, the indentation: eight bytes at a time, and in the first word that
        // is not all spaces, its leading spaces at once (the lowest byte that is not 0x20).
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { continue }
        while count &- index >= 8 {
          let others =
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            ^ 0x2020_2020_2020_2020
          guard others == 0 else {
            index += others.trailingZeroBitCount / 8
            break
          }
          index &+= 8
        }
        continue
      }
      guard byte == 0x09 || byte == 0x0D else { return index - 1 }
    }
    return index
  }

  /// The end of the run of printable ASCII other than `"` and `\` that starts at `start`
  /// (the most of every string), found on the buffer without a bounds check per byte.
  @inline(__always)
  private func plainRunEnd(from start: Int) -> Int {
    var index = start
    // Eight bytes at a time: a word goes on whole when none of its bytes is below 0x20, at
    // or above 0x80, `"` or `\` (the bit tricks can flag a byte after a real one, never
    // miss one or flag one before it, so the first flagged byte is where the run ends).
    if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let high: UInt64 = 0x8080_8080_8080_8080
      while bytes.count &- index >= 8 {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let flagged =
          (word | ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash))
          & high
        if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
        index &+= 8
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return index }
      index += 1
    }
    return index
  }

  private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Names the byte at `index` for a message: printable ASCII as `character 'x'`, anything else
  /// as `byte 0xNN`, never more than that one byte.
  private func describe(_ index: Int) -> String {
    guard index < bytes.count else { return "end of input" }
    let byte = bytes[index]
    if byte > 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
  }

  /// An error at the current position, with its 1-based line and column (in Unicode scalars).
  private func error(_ reason: String) -> JSONError {
    let end = min(position, bytes.count)
    var line = 1
    var column = 1
    for byte in bytes[..<end] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONError(line: line, column: column, reason: reason)
  }
}
