// Shared helpers for the libFuzzer targets under Fuzz/targets/. Compiled into every target
// together with Sources/GHLoginCore (one module), never into the shipped product.

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Stops the fuzzer with a message when an invariant does not hold.
///
/// `abort()` is what libFuzzer treats as a crash: it saves the input as `crash-…` and the
/// run exits non-zero.
func invariant(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
  line: UInt = #line
) {
  if condition() { return }
  let text = "INVARIANT FAILED at \(file):\(line): \(message())\n"
  _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  abort()
}

/// A small deterministic PRNG (SplitMix64), seeded from the input, so a crash reproduces.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// The seed for `bytes`: FNV-1a over them.
  static func seed(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  mutating func next() -> UInt64 {
    state = state &+ 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// A value in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Cuts `bytes` into consecutive pieces whose sizes come from `random`: mostly small (1–8
/// bytes, to hit every boundary inside a line ending or a chunk-size line), sometimes large.
func randomSplits(_ bytes: [UInt8], _ random: inout SplitMix64) -> [ArraySlice<UInt8>] {
  var pieces: [ArraySlice<UInt8>] = []
  var start = 0
  while start < bytes.count {
    let size = random.below(4) == 0 ? 1 + random.below(512) : 1 + random.below(8)
    let end = min(bytes.count, start + size)
    pieces.append(bytes[start..<end])
    start = end
  }
  return pieces
}

/// Splits `bytes` at every `separator`, keeping empty pieces.
func fields(_ bytes: ArraySlice<UInt8>, separator: UInt8) -> [ArraySlice<UInt8>] {
  bytes.split(separator: separator, omittingEmptySubsequences: false)
}

/// Whether `text` could safely reach a terminal: no control character, ESC, C1 control, line
/// separator or bidi override (``Sanitize/isUnsafe(_:)``), newlines allowed when `lines` is true.
func isTerminalSafe(_ text: String, lines: Bool = false) -> Bool {
  !text.unicodeScalars.contains { scalar in
    (!lines || scalar != "\n") && Sanitize.isUnsafe(scalar)
  }
}

/// The input as a byte array.
func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}
