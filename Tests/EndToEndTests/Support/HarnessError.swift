/// A failure of the test harness itself (not of ghlogin): a helper that would not start, a
/// timeout, a control request the fake refused. The description says what and why.
struct HarnessError: Error, CustomStringConvertible {
  /// What went wrong, with whatever output helps to diagnose it.
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
