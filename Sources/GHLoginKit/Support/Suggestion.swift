/// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo.
public func nearestCandidate(to word: String, among candidates: [String]) -> String? {
  let word = Array(word.lowercased())
  var best: (String, Int)?
  for candidate in candidates {
    let other = Array(candidate.lowercased())
    var previous = Array(0...other.count)
    for (i, a) in word.enumerated() {
      var current = [i + 1]
      for (j, b) in other.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1)))
      }
      previous = current
    }
    if best == nil || previous[other.count] < best!.1 { best = (candidate, previous[other.count]) }
  }
  guard let best, best.1 <= max(1, word.count / 3) else { return nil }
  return best.0
}
