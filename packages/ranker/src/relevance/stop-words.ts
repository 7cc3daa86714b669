/**
 * Words too common to tell one learning from another: English function words, and the filler
 * of a spoken request ("really", "keep", "figure out", "stuff", small numbers). Matched before
 * stemming, lowercased. "Always" and "never" stay: learnings are often rules of that form.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "able", "about", "above", "actually", "after", "again", "against", "all", "almost",
  "already", "also", "am", "an", "and", "any", "anyone", "anything", "anyway", "anywhere", "are",
  "aren", "around", "as", "ask", "asked", "asks", "at", "away", "back", "bad", "basically", "be",
  "because", "been", "before", "being", "below", "best", "better", "between", "big", "bit", "both",
  "but", "by", "came", "can", "cannot", "come", "comes", "could", "couldn", "did", "didn", "do",
  "does", "doesn", "doing", "don", "down", "during", "e", "each", "eg", "eight", "either", "else",
  "etc", "even", "ever", "every", "everyone", "everything", "everywhere", "exactly", "few",
  "figure", "first", "five", "for", "four", "from", "further", "g", "gave", "get", "gets", "give",
  "gives", "go", "goes", "going", "good", "got", "had", "has", "hasn", "have", "haven", "having",
  "he", "her", "here", "hers", "herself", "hey", "hi", "him", "himself", "his", "how", "however",
  "i", "ie", "if", "in", "instead", "into", "is", "isn", "it", "its", "itself", "just", "keep",
  "keeps", "kept", "kind", "know", "knows", "least", "less", "let", "lets", "like", "liked",
  "likes", "little", "look", "looking", "lot", "lots", "made", "make", "makes", "many", "may",
  "maybe", "me", "mean", "means", "might", "mine", "more", "most", "much", "must", "my", "myself",
  "need", "needed", "needs", "neither", "new", "nine", "no", "nobody", "nor", "not", "nothing",
  "now", "nowhere", "of", "off", "often", "ok", "okay", "old", "on", "once", "one", "only", "or",
  "other", "our", "ours", "ourselves", "out", "over", "own", "people", "per", "perhaps", "please",
  "pretty", "probably", "put", "puts", "quite", "rather", "really", "said", "same", "say", "says",
  "second", "see", "seem", "seemed", "seems", "sees", "seven", "several", "shall", "she", "should",
  "shouldn", "simply", "since", "six", "small", "so", "some", "somehow", "someone", "something",
  "sometimes", "somewhere", "sort", "still", "stuff", "such", "sure", "take", "takes", "tell",
  "tells", "ten", "than", "thank", "thanks", "that", "the", "their", "theirs", "them",
  "themselves", "then", "there", "these", "they", "thing", "things", "think", "thinks", "third",
  "this", "those", "though", "three", "through", "thus", "to", "told", "too", "took", "tried",
  "tries", "try", "two", "under", "until", "up", "upon", "us", "use", "used", "uses", "using",
  "usually", "various", "very", "via", "vs", "want", "wanted", "wants", "was", "wasn", "way",
  "ways", "we", "went", "were", "weren", "what", "whatever", "when", "whenever", "where",
  "wherever", "whether", "which", "while", "who", "whoever", "whom", "whose", "why", "will",
  "with", "within", "without", "won", "worse", "worst", "would", "wouldn", "yeah", "yes", "yet",
  "you", "your", "yours", "yourself", "yourselves",
]);
