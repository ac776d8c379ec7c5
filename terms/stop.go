package terms

// stopWords are English function words that carry no lexical signature. The
// list is the classic SMART/snowball core, kept short on purpose: words such
// as "not", "never" and "always" stay, because a lesson's polarity lives in them.
var stopWords = func() map[string]struct{} {
	words := []string{
		"a", "about", "above", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at",
		"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from",
		"further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him",
		"himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me",
		"more", "most", "my", "myself", "of", "off", "on", "once", "only", "or", "other", "our",
		"ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such",
		"than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these",
		"they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was",
		"we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
		"with", "would", "you", "your", "yours", "yourself", "yourselves",
	}
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}()

// isStop reports whether the lower-cased word is a stop word.
func isStop(w string) bool {
	_, ok := stopWords[w]
	return ok
}
