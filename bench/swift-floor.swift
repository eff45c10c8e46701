// bench/swift-floor.swift: the least a Swift program does to answer as `ghlogin token` does: read
// the files ghlogin reads (the config, when given, then the credentials file: the arguments, in
// order) and print the last one. bench/run builds it as a package with Sources/CStartup and the
// release profile (`scripts/build-release.sh --print-flags`), so it starts as ghlogin starts,
// and times it beside ghlogin and cat: its time is the floor for any Swift binary on that
// machine.
import Glibc

var buffer = [UInt8](repeating: 0, count: 65536)
var count = 0
for path in CommandLine.arguments.dropFirst() {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { exit(1) }
  count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
  guard count >= 0 else { exit(1) }
  close(fd)
}
let written = buffer.withUnsafeBytes { write(1, $0.baseAddress, count) }
exit(written == count ? 0 : 1)
