import Testing
@testable import GHLoginKit

@Test func formEncodingRoundTrips() throws {
  let encoded = FormEncoding.encode([("redirect_uri", "http://127.0.0.1:80/callback"), ("scope", "repo gist")])
  #expect(encoded == "redirect_uri=http%3A%2F%2F127.0.0.1%3A80%2Fcallback&scope=repo%20gist")
  let decoded = try FormEncoding.decode(Substring(encoded))
  #expect(decoded.map(\.value) == ["http://127.0.0.1:80/callback", "repo gist"])
}
