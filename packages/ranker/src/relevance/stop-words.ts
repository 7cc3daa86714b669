/**
 * Words too common to tell one learning from another: English function words and the filler of
 * a request ("please", "need", "something"). Matched before stemming, lowercased.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
  "are", "aren", "as", "at", "be", "because", "been", "before", "being", "below", "between",
  "both", "but", "by", "can", "cannot", "could", "did", "do", "does", "doing", "don", "down",
  "during", "e", "each", "eg", "either", "else", "etc", "even", "ever", "every", "few", "for",
  "from", "further", "g", "get", "gets", "go", "going", "got", "had", "has", "have", "having",
  "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "however", "i", "ie",
  "if", "in", "into", "is", "isn", "it", "its", "itself", "just", "least", "less", "let", "lets",
  "like", "look", "looking", "made", "make", "makes", "many", "may", "me", "might", "mine", "more",
  "most", "much", "must", "my", "myself", "need", "needed", "needs", "neither", "new", "no", "nor",
  "not", "now", "of", "off", "often", "old", "on", "once", "one", "only", "or", "other", "our",
  "ours", "ourselves", "out", "over", "own", "per", "please", "rather", "same", "she", "should",
  "since", "so", "some", "something", "such", "than", "that", "the", "their", "theirs", "them",
  "themselves", "then", "there", "these", "they", "thing", "things", "this", "those", "though",
  "through", "thus", "to", "too", "under", "until", "up", "upon", "us", "use", "used", "uses",
  "using", "very", "via", "vs", "want", "wants", "was", "wasn", "way", "ways", "we", "were",
  "weren", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose", "why",
  "will", "with", "within", "without", "would", "yet", "you", "your", "yours", "yourself",
  "yourselves",
]);
