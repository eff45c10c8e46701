import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct SuggestionTests {
  static let keys = [
    "client_id", "client_secret", "scopes", "host", "authorize_url", "token_url", "device_code_url", "api_url",
  ]

  @Test(arguments: [
    ("client_ld", "client_id"),
    ("CLIENT_ID", "client_id"),
    ("clientid", "client_id"),
    ("client_secrte", "client_secret"),
    ("scope", "scopes"),
    ("hostt", "host"),
    ("tokenurl", "token_url"),
    ("api-url", "api_url"),
    ("authorise_url", "authorize_url"),
  ])
  func suggestsTheNearKey(word: String, expected: String) {
    #expect(nearestCandidate(to: word, among: Self.keys) == expected)
  }

  @Test(arguments: ["colour", "x", "", "password", "hostname_override", "clientidentifier"])
  func suggestsNothingWhenFar(word: String) {
    #expect(nearestCandidate(to: word, among: Self.keys) == nil)
  }

  @Test func thresholdIsAThirdOfTheLengthButAtLeastOne() {
    // "ab" (length 2): one edit allowed.
    #expect(nearestCandidate(to: "ab", among: ["ac"]) == "ac")
    #expect(nearestCandidate(to: "ab", among: ["cd"]) == nil)
    // length 9: three edits allowed, four not.
    #expect(nearestCandidate(to: "abcdefghi", among: ["abcdefXXX"]) == "abcdefXXX")
    #expect(nearestCandidate(to: "abcdefghi", among: ["abcdeXXXX"]) == nil)
  }

  @Test func prefersTheClosestThenTheEarliest() {
    #expect(nearestCandidate(to: "tokens", among: ["token_url", "token"]) == "token")
    #expect(nearestCandidate(to: "abc", among: ["abd", "abe"]) == "abd")
    #expect(nearestCandidate(to: "abc", among: []) == nil)
  }

  @Test func twoNeighboursSwappedAreOneEdit() {
    #expect(levenshteinDistance(Array("atuh"), Array("auth")) == 1)
    #expect(levenshteinDistance(Array("ab"), Array("ba")) == 1)
    #expect(levenshteinDistance(Array("abc"), Array("ca")) == 3)
    #expect(nearestCandidate(to: "atuh", among: ["auth", "status"]) == "auth")
    #expect(nearestCandidate(to: "tokne", among: ["token", "env"]) == "token")
  }

  @Test func distance() {
    #expect(levenshteinDistance(Array("kitten"), Array("sitting")) == 3)
    #expect(levenshteinDistance(Array(""), Array("abc")) == 3)
    #expect(levenshteinDistance(Array("abc"), Array("")) == 3)
    #expect(levenshteinDistance(Array("é😀"), Array("e😀")) == 1)
  }
}
