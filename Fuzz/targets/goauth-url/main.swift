// Fuzz target: the GOAUTH URL matcher and answer (ToolHelpers/GoAuthMatch.swift), R104/R105.
//
// Input: the URL go passes to `ghlogin goauth URL`. Invariants:
// - an answer names only a logged-in host: a matched host is one of the hosts given, the URL
//   starts with exactly "https://", and its authority (up to the first '/', '?' or '#'),
//   ASCII-lowercased, its port read as a number and without ":443", is byte for byte that host; no '@' is in it;
// - the answer for the match is "https://HOST/", an empty line, one Authorization header
//   and an empty line, and parses back (as go's parseUserAuth does) to that one URL.

let hosts = ["ghe.example.com", "127.0.0.1:8443", "github.com", "[::1]:9000"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  guard let url = String(validating: input, as: UTF8.self) else { return 0 }
  guard let host = GoAuthMatch.host(forURL: url, among: hosts) else { return 0 }
  invariant(hosts.contains(host), "matched a host that is not logged in: \(host)")
  invariant(input.starts(with: Array("https://".utf8)), "matched a URL that is not https://")
  let rest = input.dropFirst(8)
  let authority = rest.prefix { !"/?#".utf8.contains($0) }
  var lowered = authority.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
  invariant(!lowered.contains(UInt8(ascii: "@")), "matched a URL with user info")
  if let colon = lowered.lastIndex(of: UInt8(ascii: ":")), lowered.last != UInt8(ascii: "]"),
    let port = Int(String(decoding: lowered[(colon + 1)...], as: UTF8.self))
  {
    lowered = Array(lowered[..<colon]) + (port == 443 ? [] : Array(":\(port)".utf8))
  }
  invariant(lowered.elementsEqual(host.utf8), "authority \(lowered) is not exactly \(host)")
  guard let answer = GoAuthMatch.answer(host: host, login: "octocat", token: "gho_token") else {
    invariant(false, "no answer for a plain login")
    return 0
  }
  let lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  invariant(
    lines.count == 5 && lines[0] == "https://\(host)/" && lines[1] == "" && lines[2].hasPrefix("Authorization: Basic ")
      && lines[3] == "" && lines[4] == "", "answer is not one block for \(host): \(answer)")
  return 0
}
