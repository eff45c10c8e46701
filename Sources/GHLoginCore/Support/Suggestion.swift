/// The candidate closest to `word` by Levenshtein distance (ignoring case), for "did you mean"
/// hints.
///
/// Returns nil when no candidate is within `max(1, word.count / 3)` edits, so that unrelated
/// words are not suggested. On a tie the earlier candidate wins.
package func nearestCandidate(to word: String, among candidates: [String]) -> String? {
  let limit = max(1, word.count / 3)
  let target = Array(word.lowercased())
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = levenshteinDistance(target, Array(candidate.lowercased()))
    if distance <= limit && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
  }
  return best?.candidate
}

/// The number of single-character insertions, deletions, substitutions and swaps of two
/// neighbours turning `a` into `b` (the optimal-string-alignment distance: `atuh` is one edit
/// from `auth`, the commonest typo being two keys hit in the wrong order).
func levenshteinDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var beforePrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
        current[j] = min(current[j], beforePrevious[j - 2] + 1)
      }
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count]
}
