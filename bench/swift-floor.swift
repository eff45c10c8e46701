// bench/swift-floor.swift: the least a Swift program does to answer as `ghlogin token` does:
// print a file (argv[1]) to standard output. bench/run builds it with the release build's link
// flags (static standard library and libstdc++, lld, packed relative relocations, no exported
// symbols) and times it beside cat: its ratio is the floor for any Swift binary on that machine,
// shown next to the `token` target (a reference, not a target of its own).
import Glibc

let fd = open(CommandLine.arguments[1], O_RDONLY)
guard fd >= 0 else { exit(1) }
var buffer = [UInt8](repeating: 0, count: 65536)
let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
guard count >= 0 else { exit(1) }
let written = buffer.withUnsafeBytes { write(1, $0.baseAddress, count) }
exit(written == count ? 0 : 1)
