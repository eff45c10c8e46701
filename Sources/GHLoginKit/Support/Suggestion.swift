/// The candidate closest to `word` by Levenshtein distance (ignoring case), for "did you mean"
/// hints.
///
/// Returns nil when no candidate is within `max(1, word.count / 3)` edits, so that unrelated
/// words are not suggested. On a tie the earlier candidate wins.
func nearestCandidate(to word: String, among candidates: [String]) -> String? {
  let limit = max(1, word.count / 3)
  let target = Array(word.lowercased())
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = levenshteinDistance(target, Array(candidate.lowercased()))
    if distance <= limit && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
  }
  return best?.candidate
}

/// The number of single-character insertions, deletions and substitutions turning `a` into `b`.
func levenshteinDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
