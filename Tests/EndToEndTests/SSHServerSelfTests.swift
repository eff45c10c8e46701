import Foundation
import GHLoginTestSupport
import Testing

/// The sshd fixture itself (issue 35 §4): a key login as the second user, and `-R REMOTE:LOCAL`
/// from a remote Unix socket (made 0600 by `StreamLocalBindMask 0177`) to a local one.
@Suite(.serialized, .enabled(if: SSHServer.isAvailable, Comment(rawValue: SSHServer.unavailableReason ?? "")))
struct SSHServerSelfTests {
  @Test func aRemoteForwardReachesALocalEchoSocket() throws {
    let server = try SSHServer()
    let local = try TemporaryDirectory(prefix: "ghlogin-echo")
    let echo = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        "-c",
        """
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.bind(sys.argv[1])
        s.listen(1)
        print("ready", flush=True)
        c, _ = s.accept()
        c.sendall(b"echo:" + c.recv(100))
        c.close()
        """,
        local.at("echo.sock"),
      ], environment: nil)
    _ = try echo.waitForLine(.stdout, timeout: 20) { $0 == "ready" }
    let remote = "/tmp/ghlogin-fixture-\(UInt32.random(in: 0...UInt32.max)).sock"
    let client =
      #"import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"hi"); print(s.recv(100).decode())"#
    let run = try server.ssh(
      ["-o", "ExitOnForwardFailure=yes", "-R", "\(remote):\(local.at("echo.sock"))"],
      command: "id -un; stat -c '%a %U' \(remote); python3 -c '\(client)' \(remote); rm -f \(remote)")
    #expect(run.status == 0, "\(run.stderr)\n\(server.log)")
    #expect(run.stdout == "\(SSHServer.remoteUser)\n600 \(SSHServer.remoteUser)\necho:hi\n")
    #expect(!FileManager.default.fileExists(atPath: remote))
  }

  @Test func theRemoteUserHasAHomeOfItsOwn() throws {
    let server = try SSHServer(shell: "/bin/sh")
    let run = try server.ssh(command: "echo \"$HOME $SHELL\"")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "\(server.remoteHome) /bin/sh\n")
    #expect(server.remoteHome != NSHomeDirectory())
  }
}
