import GHLoginCLI
import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

let status = GHLogin.main(environment: .process())

// After Ctrl-C or SIGTERM, with the message written and everything cleaned up, end by that
// signal itself (its default action), not by exit(130): a shell then sees a process the signal
// killed, so a loop or script around ghlogin stops as it does for any program Ctrl-C ends. The
// status a shell shows is the same 130 (143) the exit-code table gives; the library's
// ExitStatus is unchanged.
if let signalNumber = status == .interrupted ? SIGINT : status == .terminated ? SIGTERM : nil {
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)  // (were it blocked, it stays pending and the exit below still says 130/143)
}
exit(status.rawValue)
