package diag

import "unicode/utf8"

// Suggest returns the candidate closest to word when it is close enough to be
// a likely misspelling, or "" when none is. It is used for "did you mean"
// hints on device types, keys and names.
func Suggest(word string, candidates []string) string {
	best, bestDist := "", -1
	limit := 3
	switch n := utf8.RuneCountInString(word); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := distance(word, c)
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean formats a hint for Suggest's answer: ` (did you mean "x"?)`,
// or "" when there is nothing to suggest.
func DidYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}

// distance is the optimal string alignment distance: insertions, deletions,
// substitutions and transpositions of adjacent characters each cost one.
// Letters are compared without case, and '-' counts as '_'.
//
// Words of up to 32 characters, every key and type name, take no memory of
// the heap: a large file's hundreds of thousands of hints cost no garbage.
func distance(a, b string) int {
	var abuf, bbuf [32]rune
	var rows [3 * 33]int
	ra, rb := fold(abuf[:0], a), fold(bbuf[:0], b)
	n, m := len(ra), len(rb)
	var prev2, prev, cur []int
	if m+1 <= len(rows)/3 {
		prev2, prev, cur = rows[0:m+1], rows[m+1:2*(m+1)], rows[2*(m+1):3*(m+1)]
	} else {
		prev2, prev, cur = make([]int, m+1), make([]int, m+1), make([]int, m+1)
	}
	for j := 0; j <= m; j++ {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		for j := 1; j <= m; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}

// fold appends s's characters to r, lower case, '-' as '_'.
func fold(r []rune, s string) []rune {
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == '-':
			c = '_'
		}
		r = append(r, c)
	}
	return r
}
