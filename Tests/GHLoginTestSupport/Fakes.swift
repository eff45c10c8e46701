import GHLoginCore
import Synchronization

// The fakes of the seam protocols (TimeSource, TextOutput, ByteInput) that unit tests run
// commands and logins with. They live here, not in Sources: nothing shipped uses them.

/// A clock that moves only when told to, or when something sleeps on it.
package final class ManualClock: TimeSource {
  private let time: TestLock<(wall: Double, mono: Double, sleeps: [Double])>

  package init(now: Double = 1_700_000_000) { time = TestLock((now, 1000, [])) }

  package func now() -> Double { time.withLock { $0.wall } }
  package func monotonic() -> Double { time.withLock { $0.mono } }
  package func sleep(seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
      $0.sleeps.append(seconds)
    }
  }
  /// Moves both clocks forward without recording a sleep.
  package func advance(by seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
    }
  }
  /// Every `sleep` asked of this clock, in order.
  package var sleeps: [Double] { time.withLock { $0.sleeps } }
}

/// An output that keeps everything written, for tests.
package final class BufferOutput: TextOutput {
  private let storage = TestLock("")
  package let isTerminal: Bool
  package init(isTerminal: Bool = false) { self.isTerminal = isTerminal }
  package func write(_ text: String) { storage.withLock { $0 += text } }
  package var text: String { storage.withLock { $0 } }
}

/// An input made of fixed bytes, for tests.
package final class BufferInput: ByteInput {
  private let storage: TestLock<[UInt8]>
  package let isTerminal: Bool
  package init(_ bytes: [UInt8] = [], isTerminal: Bool = false) {
    storage = TestLock(bytes)
    self.isTerminal = isTerminal
  }
  package convenience init(_ text: String, isTerminal: Bool = false) {
    self.init(Array(text.utf8), isTerminal: isTerminal)
  }

  package func readAll(limit: Int) -> [UInt8]? {
    storage.withLock { bytes in
      defer { bytes = [] }
      return bytes.count > limit ? nil : bytes
    }
  }

  package func readLine() -> String? {
    storage.withLock { bytes in
      guard !bytes.isEmpty else { return nil }
      let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
      let line = String(decoding: bytes[..<end], as: UTF8.self)
      bytes.removeSubrange(..<min(end + 1, bytes.count))
      return line
    }
  }
}
