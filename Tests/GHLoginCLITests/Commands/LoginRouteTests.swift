import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// Issue 31 §1: the flow is decided once, by ``Workspace/route(_:)``, from the flags the command
/// line maps (``AuthCommand/requestedFlow``) and the environment; the plan takes that route and
/// the command reads it.
@Suite struct LoginRouteTests {
  let fixture: StoreFixture

  init() throws { fixture = try StoreFixture() }

  /// The route of `ghlogin auth FLAGS` with `variables`, and its plan.
  func route(_ flags: [String], _ variables: [String: String]) throws -> (LoginRoute, LoginPlan) {
    var all = ["HOME": fixture.home, "GHLOGIN_CLIENT_ID": "Iv1.route"]
    all.merge(variables) { _, new in new }
    let environment = Environment(
      arguments: [], variables: EnvironmentVariables(all), stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() })
    let command = try AuthCommand(ArgumentParser.parse(flags, for: AuthCommand.configuration))
    let options = LoginOptions(flow: command.requestedFlow, acceptsPastedRedirect: command.noBrowser)
    let workspace = try Workspace(collectingWarnings: environment)
    let route = try workspace.route(options)
    return (route, try workspace.plan(options, route: route))
  }

  @Test(
    arguments: [
      // flags, variables, flow, says why
      (["--device"], ["DISPLAY": ":0"], LoginFlow.device, false),
      (["--device", "--no-browser"], [:], .device, false),
      (["--web"], [:], .browser, false),
      (["--no-browser"], ["SSH_TTY": "/dev/pts/1"], .browser, false),
      ([], ["DISPLAY": ":0"], .browser, false),
      ([], ["WAYLAND_DISPLAY": "wayland-0"], .browser, false),
      ([], [:], .device, true),
      ([], ["DISPLAY": ""], .device, true),
      ([], ["DISPLAY": ":0", "SSH_CONNECTION": "10.0.0.1 5 10.0.0.2 22"], .device, true),
      ([], ["DISPLAY": ":0", "SSH_TTY": "/dev/pts/3"], .device, true),
    ] as [([String], [String: String], LoginFlow, Bool)])
  func choosesTheFlowOnce(_ flags: [String], _ variables: [String: String], _ flow: LoginFlow, _ says: Bool) throws {
    let (route, plan) = try route(flags, variables)
    #expect(route.flow == flow)
    #expect((route.flowNote != nil) == says)
    #expect(plan.flow == flow, "the plan takes the route's flow")
    #expect(plan.flowNote == route.flowNote)
    #expect(plan.host == route.host)
  }

  @Test func theNoteSaysWhy() throws {
    #expect(
      try route([], [:]).0.flowNote?.text(.ghlogin)
        == "No display found: using the device flow (pass --web for the browser flow).")
    #expect(
      try route([], ["SSH_TTY": "/dev/pts/0"]).0.flowNote?.text(.ghlogin)
        == "Logged in over SSH: using the device flow (pass --web for the browser flow).")
  }

  /// Paste-back is decided with the route (asked for, or no browser can be shown here); the plan
  /// reads from stdin only when it is a terminal, which a buffer is not.
  @Test func pasteBackIsDecidedWithTheRoute() throws {
    #expect(try route(["--no-browser"], ["DISPLAY": ":0"]).0.pasteBack)
    #expect(try route(["--web"], [:]).0.pasteBack, "--web with no display")
    #expect(try !route(["--web"], ["DISPLAY": ":0"]).0.pasteBack)
    #expect(try !route(["--device"], [:]).0.pasteBack)
    #expect(try route(["--no-browser"], [:]).1.pasteInput == nil, "stdin is not a terminal")
  }

  /// The timeout is one `Duration` in the plan: the browser flow's default, the device flow's
  /// none (the code's life).
  @Test func theTimeoutIsOneDuration() throws {
    #expect(try route(["--web"], [:]).1.timeout == .seconds(300))
    #expect(try route(["--device"], [:]).1.timeout == nil)
  }
}
