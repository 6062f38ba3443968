package inboxbench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// The words searched for. Vocabulary words are six lower-case letters
// (three consonant-vowel syllables), so none of these is found inside one.
const (
	// RareWord is in the message of exactly RareCount submissions of the
	// large form.
	RareWord  = "zymurgical"
	RareCount = 20
	// KnownEmail is the address of exactly EmailCount submissions of the
	// large form.
	KnownEmail = "ada.lovelace@analytical.example"
	EmailCount = 10
	// AbsentWord is in no submission: the search that reads everything.
	AbsentWord = "xylophonic"
)

// vocabularySize is how many words messages are drawn from.
const vocabularySize = 5000

var (
	firstNames = []string{"Alice", "Bruno", "Chloé", "Dmitri", "Emma", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemal", "Lena", "Mateo", "Nora", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tara"}
	lastNames  = []string{"Smith", "Müller", "Rossi", "Dubois", "Novak", "Silva", "Tanaka", "Kowalski", "Jensen", "Okafor", "Garcia", "Nguyen", "Larsen", "Petrov", "Haddad"}
)

// corpus makes the payloads of submissions: a name, an e-mail address and
// a message of words drawn with a Zipf-like frequency, so that a few words
// are in most messages and most words in few. It is deterministic for a
// seed, so runs compare.
type corpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	words []string
	// seen counts, for each word, the messages it is in.
	seen []int
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, 26))
	const consonants, vowels = "bdfgklmnprstvz", "aeiou"
	words := make([]string, 0, vocabularySize)
	taken := map[string]bool{}
	for len(words) < vocabularySize {
		var b [6]byte
		for i := 0; i < 6; i += 2 {
			b[i], b[i+1] = consonants[rng.IntN(len(consonants))], vowels[rng.IntN(len(vowels))]
		}
		if w := string(b[:]); !taken[w] {
			taken[w] = true
			words = append(words, w)
		}
	}
	return &corpus{rng: rng, zipf: rand.NewZipf(rng, 1.1, 1, vocabularySize-1), words: words, seen: make([]int, vocabularySize)}
}

// payload is the JSON of a contact form's submission.
type payload struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Message string `json:"message"`
}

// next returns the payload of a new submission; rare adds RareWord to its
// message, email gives it KnownEmail.
func (c *corpus) next(rare, email bool) string {
	first, last := firstNames[c.rng.IntN(len(firstNames))], lastNames[c.rng.IntN(len(lastNames))]
	p := payload{Name: first + " " + last, Email: fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), c.rng.IntN(10000))}
	if email {
		p.Name, p.Email = "Ada Lovelace", KnownEmail
	}
	n := 4 + c.rng.IntN(11)
	msg := make([]string, 0, n+1)
	in := map[int]bool{}
	for range n {
		i := int(c.zipf.Uint64())
		msg = append(msg, c.words[i])
		if !in[i] {
			in[i] = true
			c.seen[i]++
		}
	}
	if rare {
		msg = append(msg[:n/2], append([]string{RareWord}, msg[n/2:]...)...)
	}
	p.Message = strings.Join(msg, " ")
	b, _ := json.Marshal(p) // strings always encode
	return string(b)
}

// wordNear returns the word in the number of messages nearest n.
func (c *corpus) wordNear(n int) (string, int) {
	best := 0
	for i, k := range c.seen {
		if abs(k-n) < abs(c.seen[best]-n) {
			best = i
		}
	}
	return c.words[best], c.seen[best]
}

func abs(n int) int { return max(n, -n) }
