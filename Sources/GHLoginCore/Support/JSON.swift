/// A JSON value (RFC 8259), as parsed by ``JSON/parse(_:)-(Collection<UInt8>)`` or built to be serialized.
///
/// Numbers keep their literal text, so nothing is rounded on the way through;
/// ``intValue`` and ``doubleValue`` convert on demand.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number, as its literal text (for example `"42"`, `"-1.5e3"`).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// An integer number.
  package init(integer: Int64) { self = .number(String(integer)) }

  /// A number from a `Double`, or nil when the value is not finite (JSON has no NaN or infinity).
  ///
  /// Integral values within ±2^53 are written without a fraction (`1700000000`), others with
  /// Swift's shortest round-tripping form (`1.5`, `1e-07`), both valid JSON numbers.
  package init?(double: Double) {
    guard double.isFinite else { return nil }
    if double == double.rounded(.towardZero) && abs(double) <= 9_007_199_254_740_992 {
      self = .number(String(Int64(double)))
    } else {
      self = .number(String(double))
    }
  }

  /// The string, when this is a string.
  package var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as an `Int`, when this is a number written as an integer (no fraction, no
  /// exponent) that fits; `1.0` and `1e2` give nil.
  var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    guard !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) else { return nil }
    return Int(text)
  }

  /// The number as a `Double` (the nearest one), when this is a number.
  var doubleValue: Double? {
    guard case .number(let text) = self else { return nil }
    return Self.shortDecimal(text) ?? Double(text)
  }

  /// The number `text` as the nearest `Double`, when it has at most 15 digits and no exponent
  /// (every time the store writes); nil for any other. Its digits as an integer and 10 to the
  /// power of the fraction's length are both exact `Double`s, so one division rounds once, to
  /// the nearest: what `strtod` gives (Clinger's fast path), without `strtod`'s tables and
  /// code, whose first use faults pages in.
  static func shortDecimal(_ text: String) -> Double? {
    var digits: UInt64 = 0
    var count = 0
    var fractionDigits = -1  // -1 until the point
    var negative = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard count < 15 else { return nil }
        digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
        count += 1
        if fractionDigits >= 0 { fractionDigits += 1 }
      case UInt8(ascii: "."):
        guard fractionDigits < 0 else { return nil }
        fractionDigits = 0
      case UInt8(ascii: "-"):
        guard count == 0, !negative, fractionDigits < 0 else { return nil }
        negative = true
      default:
        return nil
      }
    }
    guard count > 0 else { return nil }
    var scale = 1.0
    for _ in 0..<max(fractionDigits, 0) { scale *= 10 }
    let value = Double(digits) / scale
    return negative ? -value : value
  }

  /// The boolean, when this is `true` or `false`.
  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, when this is an array.
  package var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, when this is an object.
  package var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is `null`.
  var isNull: Bool { self == .null }

  /// The JSON type's name for messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(integerLiteral value: Int64) { self.init(integer: value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
  }
  package init(nilLiteral: ()) { self = .null }
}

/// A JSON object: its members in the order they were read or added.
///
/// Keys are unique: the parser rejects duplicates, and the subscript setter replaces. The keys
/// and the values are two arrays, not one of (key, value) tuples: `[String]` is one of the
/// standard library's prespecialized arrays, so reading an object makes no tuple or array type
/// at run time for its members.
package struct JSONObject: Sendable, Equatable {
  /// The keys in order.
  package private(set) var keys: [String]
  /// The values, `values[i]` being the value of `keys[i]`.
  package private(set) var values: [JSONValue]

  package init(_ entries: [(key: String, value: JSONValue)] = []) {
    keys = entries.map(\.key)
    values = entries.map(\.value)
  }

  /// The members in order, as (key, value) pairs.
  package var entries: Members { Members(object: self) }

  /// The members of an object in order, each a `(key:value:)` pair.
  package struct Members: Sequence, IteratorProtocol {
    fileprivate let object: JSONObject
    private var index = 0

    fileprivate init(object: JSONObject) { self.object = object }

    package mutating func next() -> (key: String, value: JSONValue)? {
      guard index < object.keys.count else { return nil }
      defer { index += 1 }
      return (key: object.keys[index], value: object.values[index])
    }
  }

  package var isEmpty: Bool { keys.isEmpty }
  package var count: Int { keys.count }

  /// Adds a member whose key the object does not have (the parser, after its duplicate check,
  /// and filters copying the members of another object).
  package mutating func append(key: String, value: JSONValue) {
    // Room for eight members at once: most objects ghlogin reads fit, and each growth of an
    // array asks the runtime for its storage type again.
    if keys.isEmpty {
      keys.reserveCapacity(8)
      values.reserveCapacity(8)
    }
    keys.append(key)
    values.append(value)
  }

  /// The value for `key`; setting nil removes the member, setting a value replaces it in place
  /// or appends it.
  package subscript(key: String) -> JSONValue? {
    // Lengths first (O(1) for native strings): most keys differ in length, and a full string
    // comparison is the costlier part of reading each account of a credentials file.
    get { keys.firstIndex { $0.utf8.count == key.utf8.count && $0 == key }.map { values[$0] } }
    set {
      let index = keys.firstIndex(of: key)
      switch (index, newValue) {
      case (let index?, let value?): values[index] = value
      case (let index?, nil):
        keys.remove(at: index)
        values.remove(at: index)
      case (nil, let value?): append(key: key, value: value)
      case (nil, nil): break
      }
    }
  }
}

/// Why some bytes are not the JSON ghlogin accepts; `line` and `column` are 1-based, the column
/// counting Unicode scalars.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
  package var line: Int
  package var column: Int
  /// What is wrong, in words; it never quotes more than one character of the input, except the
  /// name of a duplicated key.
  package var reason: String

  package init(line: Int, column: Int, reason: String) {
    self.line = line
    self.column = column
    self.reason = reason
  }

  package var description: String { "line \(line), column \(column): \(reason)" }
}

/// Strict RFC 8259 JSON: parsing and serializing, without Foundation.
package enum JSON {
  /// The largest input ``parse(_:)-(Collection<UInt8>)`` accepts, in bytes.
  package static let maximumInputSize = 4 * 1024 * 1024
  /// The deepest nesting of arrays and objects ``parse(_:)-(Collection<UInt8>)`` accepts.
  static let maximumDepth = 64

  /// Parses one JSON text.
  ///
  /// Refuses, with the position of the fault: duplicate keys in one object, trailing commas,
  /// comments, leading zeros, invalid or lone-surrogate `\u` escapes, invalid UTF-8, control
  /// characters inside strings, a byte-order mark, anything after the value, nesting deeper
  /// than ``maximumDepth`` and input larger than ``maximumInputSize``. Keys are compared as Swift
  /// strings, so two canonically equivalent spellings (`é` and `e` + U+0301) count as duplicates.
  package static func parse(_ bytes: some Collection<UInt8>) throws(JSONError) -> JSONValue {
    try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONError) in try parse(buffer) }
  }

  /// ``parse(_:)`` of the bytes in `buffer`, without copying them.
  package static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
    guard buffer.count <= maximumInputSize else {
      throw JSONError(line: 1, column: 1, reason: "the input is larger than \(maximumInputSize / 1024 / 1024) MiB")
    }
    var parser = JSONParser(buffer: buffer)
    return try parser.parseDocument()
  }

  /// Parses the UTF-8 of `text`.
  package static func parse(_ text: String) throws(JSONError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// Writes `value` as JSON, members in their stored order.
  ///
  /// Compact by default; `pretty` indents by two spaces, puts one member or element per line
  /// and ends with a newline. `"`, `\` and control characters (U+0000–U+001F, U+007F) in
  /// strings are escaped, so the output always parses back to an equal value.
  package static func serialize(_ value: JSONValue, pretty: Bool = false) -> String {
    var writer = JSONWriter(pretty: pretty)
    writer.write(value, indent: 0)
    if pretty { writer.output.append(UInt8(ascii: "\n")) }
    return String(decoding: writer.output, as: UTF8.self)
  }
}
