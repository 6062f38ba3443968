package protocol

import (
	"bytes"
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// maxFormAge is the longest a form may stay open before its post is
// flagged: a stamp older than that was kept, or replayed, by a program.
const maxFormAge = 24 * 60 * 60 // seconds

// minForeignLetters is the least number of letters a value must hold in
// scripts the form does not use to be flagged: a name or a word quoted
// in another script is not spam.
const minForeignLetters = 5

// maxPhraseReasons caps the phrases a submission's reasons name.
const maxPhraseReasons = 5

// spamPhrasesText is the built-in list of spam phrases, one a line.
//
//go:embed spamphrases.txt
var spamPhrasesText string

// builtinPhrases are the phrases of spamphrases.txt.
var builtinPhrases = func() *phraseList {
	var lines []string
	for line := range strings.Lines(spamPhrasesText) {
		if !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return newPhraseList(lines)
}()

// spamReasons returns why the submission req looks like spam, in words
// for the form's owners; none when it does not. It runs on every
// submission, after the payload was validated: it reads each value once
// and allocates only for what it reports.
func (s *Server) spamReasons(form *hub.Form, req hubclient.SubmitRequest) []string {
	var reasons []string
	if r := timeTrap(form.Settings.TimeTrapSeconds(), req.Timing); r != "" {
		reasons = append(reasons, r)
	}
	if form.Settings.Spam.Off {
		return reasons
	}
	c := contentCheck{form: form, checks: form.Settings.Spam, reasons: reasons}
	c.run(req.Payload)
	return c.reasons
}

// on reports whether a check a *bool turns on or off is on: unless false.
func on(b *bool) bool { return b == nil || *b }

// timeTrap returns why the timing of a post is a bot's, or "" when it is
// a person's or the time trap is off (min is 0) or the client did not
// say (t is nil: a client that renders no form, or predates the trap).
func timeTrap(min float64, t *hubclient.Timing) string {
	switch {
	case t == nil || min <= 0:
		return ""
	case t.Stamp == hubclient.StampMissing:
		return "sent without the time stamp of the page that showed the form"
	case t.Stamp != hubclient.StampValid:
		return "sent with a time stamp the page that showed the form did not sign"
	case t.Seconds < 0:
		return "sent with a time stamp from the future"
	case t.Seconds < min:
		return "sent " + seconds(t.Seconds) + " s after the form was shown (the form's minimum is " + seconds(min) + " s)"
	case t.Seconds > maxFormAge:
		return "sent " + age(t.Seconds) + " after the form was shown (at most a day is allowed)"
	}
	return ""
}

// seconds writes x to a tenth of a second, without a needless ".0".
func seconds(x float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 1, 64), ".0")
}

// age writes a time longer than a day in hours, or in days past two.
func age(secs float64) string {
	if hours := int(secs / 3600); hours < 48 {
		return strconv.Itoa(hours) + " hours"
	}
	return strconv.Itoa(int(secs/86400)) + " days"
}

// contentCheck checks the values of one submission.
type contentCheck struct {
	form    *hub.Form
	checks  hub.SpamChecks
	reasons []string
	// lower is the value being checked, lowered.
	lower []byte
	// own are the form's own phrases, read when first needed.
	own     *phraseList
	ownRead bool
	// allowed are the scripts of the form's languages, known once
	// allowedRead.
	allowed     scriptSet
	allowedRead bool
	phrases     int // phrases named in reasons
}

// run checks each value the visitor typed, field by field in the form's
// order, so that the reasons come in that order too.
func (c *contentCheck) run(payload map[string]any) {
	var buf [1024]byte
	c.lower = buf[:0]
	links := 0
	for i := range c.form.Schema.Fields {
		f := &c.form.Schema.Fields[i]
		switch f.Type {
		case hubclient.FieldText, hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldTextarea, hubclient.FieldURL:
		default:
			continue // chosen from the form's options, or not text
		}
		v, _ := payload[f.Name].(string)
		if v == "" {
			continue
		}
		var letters scriptCounts
		c.lower = letters.appendLower(c.lower[:0], v)
		// A URL field's own address is what it is for.
		if f.Type != hubclient.FieldURL {
			n := countLinks(c.lower)
			links += n
			if n > 0 && f.Type != hubclient.FieldTextarea && on(c.checks.LinksInTextFields) {
				c.add("a link in “" + label(f) + "”, a field not meant for one")
			}
		}
		if on(c.checks.ForeignScripts) {
			c.checkScripts(&letters)
		}
		c.checkPhrases()
	}
	if max := c.checks.LinksLimit(); max >= 0 && links > max {
		c.add(linksReason(links, max))
	}
}

// add adds reason unless it is there already.
func (c *contentCheck) add(reason string) {
	if !slices.Contains(c.reasons, reason) {
		c.reasons = append(c.reasons, reason)
	}
}

// label names a field for an owner: by its label, else its name.
func label(f *hubclient.Field) string {
	if f.Label != "" {
		return f.Label
	}
	return f.Name
}

func linksReason(n, max int) string {
	s := strconv.Itoa(n) + " links"
	if n == 1 {
		s = "1 link"
	}
	if max == 0 {
		return s + " (the form allows none)"
	}
	return s + " (at most " + strconv.Itoa(max) + ")"
}

// countLinks counts the links in a lowered text: each "http://" or
// "https://", and each "www." that does not follow one or stand within a
// word or an address.
func countLinks(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 'h':
			if bytes.HasPrefix(b[i:], []byte("http://")) || bytes.HasPrefix(b[i:], []byte("https://")) {
				n++
				i += len("http:/")
			}
		case 'w':
			if bytes.HasPrefix(b[i:], []byte("www.")) && (i == 0 || !inLink(b[i-1])) {
				n++
				i += len("www")
			}
		}
	}
	return n
}

// inLink reports whether a "www." after byte b continues a word, an
// address or a link already counted.
func inLink(b byte) bool {
	return b >= utf8.RuneSelf || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || strings.IndexByte("./@-_", b) >= 0
}

// checkScripts flags the value whose letters, counted in letters, are
// mostly in one script the form's languages do not use.
func (c *contentCheck) checkScripts(letters *scriptCounts) {
	// Most values are in Latin script, which every form allows: the
	// form's languages are looked at only for the others.
	if foreign := letters.total - letters.n[latin]; foreign < minForeignLetters || 2*foreign <= letters.total {
		return
	}
	if !c.allowedRead {
		c.allowed, c.allowedRead = formScripts(c.form.Schema), true
	}
	foreign, most := 0, -1
	for sc, n := range letters.n {
		if n == 0 || c.allowed.has(script(sc)) {
			continue
		}
		foreign += n
		if most < 0 || n > letters.n[most] {
			most = sc
		}
	}
	if foreign < minForeignLetters || 2*foreign <= letters.total {
		return
	}
	name := scripts[most].name
	if script(most) == otherScript {
		name = scriptName(letters.other) + " script"
	}
	c.add("text in " + name + ", which none of the form's languages use")
}

// checkPhrases flags the phrases of the built-in list, unless the form
// turns it off, and of the form's own list that the lowered value holds,
// reading it once for both.
func (c *contentCheck) checkPhrases() {
	if !c.ownRead {
		c.ownRead = true
		if len(c.checks.Phrases) > 0 {
			c.own = newPhraseList(c.checks.Phrases)
		}
	}
	lists := [2]*phraseList{c.own}
	if on(c.checks.BuiltinPhrases) {
		lists[1] = builtinPhrases
	}
	text := c.lower
	for i := 0; i < len(text); {
		end, h := wordEnd(text, i)
		if end == i {
			_, size := utf8.DecodeRune(text[i:])
			i += size
			continue
		}
		for _, l := range lists {
			if l == nil {
				continue
			}
			for _, k := range l.startingWith(text[i:end], h) {
				if matchesAt(text, i, l.phrases[k]) && !c.foundPhrase(l.phrases[k]) {
					return
				}
			}
		}
		i = end
	}
	for _, l := range lists {
		if l != nil && !l.findOthers(text, c) {
			return
		}
	}
}

// foundPhrase adds the reason of a phrase found, and reports whether
// more are worth looking for.
func (c *contentCheck) foundPhrase(phrase []byte) bool {
	if c.phrases >= maxPhraseReasons {
		return false
	}
	reason := "the phrase “" + string(phrase) + "”"
	if !slices.Contains(c.reasons, reason) {
		c.reasons = append(c.reasons, reason)
		c.phrases++
	}
	return c.phrases < maxPhraseReasons
}

// phraseList is a list of phrases, each lowered, its words one space
// apart, indexed by its first word: a text is read once whatever the
// number of phrases, and most of its words are let by after a look at a
// filter.
type phraseList struct {
	phrases [][]byte
	// byFirst lists the phrases that begin with a word by that word (a
	// run of letters and digits); other lists the others ("$$$").
	byFirst map[string][]int
	other   []int
	// filter has the bit wordHash%filterBits of each first word set.
	filter [filterBits / 64]uint64
}

const filterBits = 1024

// newPhraseList returns the list of phrases ps; empty ones are left out.
func newPhraseList(ps []string) *phraseList {
	l := &phraseList{byFirst: make(map[string][]int, len(ps))}
	// The phrases share one array, sliced once it is whole.
	var buf []byte
	ends := make([]int, len(ps))
	for i, p := range ps {
		buf = appendPhrase(buf, p)
		ends[i] = len(buf)
	}
	start := 0
	for _, end := range ends {
		if end > start {
			l.add(buf[start:end:end])
		}
		start = end
	}
	return l
}

func (l *phraseList) add(phrase []byte) {
	i := len(l.phrases)
	l.phrases = append(l.phrases, phrase)
	end, h := wordEnd(phrase, 0)
	if end == 0 {
		l.other = append(l.other, i)
		return
	}
	first := string(phrase[:end])
	l.byFirst[first] = append(l.byFirst[first], i)
	bit := h % filterBits
	l.filter[bit/64] |= 1 << (bit % 64)
}

// startingWith returns the indexes of the phrases of l that begin with
// word, whose hash is h.
func (l *phraseList) startingWith(word []byte, h uint32) []int {
	if bit := h % filterBits; l.filter[bit/64]&(1<<(bit%64)) == 0 {
		return nil
	}
	return l.byFirst[string(word)]
}

// findOthers reports to c each phrase of l that begins with no word and
// that text holds; it returns false once c wants no more.
func (l *phraseList) findOthers(text []byte, c *contentCheck) bool {
	for _, k := range l.other {
		for i := range text {
			if matchesAt(text, i, l.phrases[k]) {
				if !c.foundPhrase(l.phrases[k]) {
					return false
				}
				break
			}
		}
	}
	return true
}

// wordEnd returns where the run of letters and digits that begins text[i:]
// ends, i when it begins with none, and the run's hash for the filter.
func wordEnd(text []byte, i int) (int, uint32) {
	h := uint32(2166136261) // FNV-1a
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z') {
				break
			}
			h = (h ^ uint32(c)) * 16777619
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if !isWordRune(r) {
			break
		}
		for _, b := range text[i : i+size] {
			h = (h ^ uint32(b)) * 16777619
		}
		i += size
	}
	return i, h
}

// matchesAt reports whether text holds phrase at i, any run of white space
// for each of its spaces, not followed by a letter or digit that would
// make its last word longer. The caller makes sure that the phrase does
// not begin within a word.
func matchesAt(text []byte, i int, phrase []byte) bool {
	for _, b := range phrase {
		if b == ' ' {
			n := i
			for n < len(text) && isSpace(text[n]) {
				n++
			}
			if n == i {
				return false
			}
			i = n
			continue
		}
		if i >= len(text) || text[i] != b {
			return false
		}
		i++
	}
	return wordsApart(phrase, text[i:])
}

// appendPhrase appends p lowered, its words one space apart, to b.
func appendPhrase(b []byte, p string) []byte {
	n := len(b)
	for word := range strings.FieldsSeq(p) {
		if len(b) > n {
			b = append(b, ' ')
		}
		b = appendLower(b, word)
	}
	return b
}

// appendLower appends s lowered to b.
func appendLower(b []byte, s string) []byte {
	var none scriptCounts
	return none.appendLower(b, s)
}

func isSpace(b byte) bool { return b == ' ' || '\t' <= b && b <= '\r' }

// wordsApart reports whether a ends and b begins where one word cannot
// run into the next: unless both the last rune of a and the first of b
// are letters or digits.
func wordsApart(a, b []byte) bool {
	last, _ := utf8.DecodeLastRune(a)
	first, _ := utf8.DecodeRune(b)
	return !isWordRune(last) || !isWordRune(first)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// script is a writing system the check tells apart, an index of scripts.
type script uint8

// The scripts, in the order of scripts.
const (
	latin script = iota
	cyrillic
	greek
	han
	hiragana
	katakana
	hangul
	arabic
	hebrew
	devanagari
	thai
	armenian
	georgian
	bengali
	tamil
	telugu
	gujarati
	gurmukhi
	kannada
	malayalam
	sinhala
	khmer
	lao
	myanmar
	ethiopic
	// otherScript is every script of letters not above.
	otherScript
)

// scripts names each script for owners and gives its letters; the most
// common come first, as letters are looked up in this order.
var scripts = [...]struct {
	name  string
	table *unicode.RangeTable
}{
	latin:       {"Latin script", unicode.Latin},
	cyrillic:    {"Cyrillic script", unicode.Cyrillic},
	greek:       {"Greek script", unicode.Greek},
	han:         {"Chinese characters (Han)", unicode.Han},
	hiragana:    {"Japanese Hiragana", unicode.Hiragana},
	katakana:    {"Japanese Katakana", unicode.Katakana},
	hangul:      {"Korean Hangul", unicode.Hangul},
	arabic:      {"Arabic script", unicode.Arabic},
	hebrew:      {"Hebrew script", unicode.Hebrew},
	devanagari:  {"Devanagari script", unicode.Devanagari},
	thai:        {"Thai script", unicode.Thai},
	armenian:    {"Armenian script", unicode.Armenian},
	georgian:    {"Georgian script", unicode.Georgian},
	bengali:     {"Bengali script", unicode.Bengali},
	tamil:       {"Tamil script", unicode.Tamil},
	telugu:      {"Telugu script", unicode.Telugu},
	gujarati:    {"Gujarati script", unicode.Gujarati},
	gurmukhi:    {"Gurmukhi script", unicode.Gurmukhi},
	kannada:     {"Kannada script", unicode.Kannada},
	malayalam:   {"Malayalam script", unicode.Malayalam},
	sinhala:     {"Sinhala script", unicode.Sinhala},
	khmer:       {"Khmer script", unicode.Khmer},
	lao:         {"Lao script", unicode.Lao},
	myanmar:     {"Myanmar script", unicode.Myanmar},
	ethiopic:    {"Ethiopic script", unicode.Ethiopic},
	otherScript: {"", nil},
}

// scriptSet is a set of scripts, one bit each.
type scriptSet uint32

func (s scriptSet) has(sc script) bool { return s&(1<<sc) != 0 }

func setOf(scs ...script) scriptSet {
	var s scriptSet
	for _, sc := range scs {
		s |= 1 << sc
	}
	return s
}

// languageScripts are the scripts of the languages not written in Latin
// script, by ISO 639-1 code. Serbian and a few others are written in
// Latin script as well, which every form allows.
var languageScripts = map[string]scriptSet{
	"ru": setOf(cyrillic), "uk": setOf(cyrillic), "bg": setOf(cyrillic), "sr": setOf(cyrillic),
	"be": setOf(cyrillic), "mk": setOf(cyrillic), "kk": setOf(cyrillic), "ky": setOf(cyrillic),
	"tg": setOf(cyrillic), "mn": setOf(cyrillic),
	"el": setOf(greek),
	"zh": setOf(han),
	"ja": setOf(han, hiragana, katakana),
	"ko": setOf(hangul),
	"ar": setOf(arabic), "fa": setOf(arabic), "ur": setOf(arabic), "ps": setOf(arabic),
	"he": setOf(hebrew), "yi": setOf(hebrew),
	"hi": setOf(devanagari), "mr": setOf(devanagari), "ne": setOf(devanagari),
	"th": setOf(thai),
	"hy": setOf(armenian), "ka": setOf(georgian), "bn": setOf(bengali), "ta": setOf(tamil),
	"te": setOf(telugu), "gu": setOf(gujarati), "pa": setOf(gurmukhi), "kn": setOf(kannada),
	"ml": setOf(malayalam), "si": setOf(sinhala), "km": setOf(khmer), "lo": setOf(lao),
	"my": setOf(myanmar), "am": setOf(ethiopic),
}

// formScripts returns the scripts of the form's languages: Latin, the
// base language's as far as the schema says, and those of each of its
// translations' locales ("pt-BR", "zh_Hant"), by language.
func formScripts(schema *hubclient.Schema) scriptSet {
	allowed := setOf(latin)
	for locale := range schema.I18n.Translations {
		lang, _, _ := strings.Cut(strings.ReplaceAll(locale, "_", "-"), "-")
		allowed |= languageScripts[strings.ToLower(lang)]
	}
	return allowed
}

// scriptCounts counts the letters of a value by script.
type scriptCounts struct {
	total int
	n     [otherScript + 1]int
	// other is a letter in otherScript, to name its script by.
	other rune
}

// appendLower appends s lowered to b, counting its letters.
func (sc *scriptCounts) appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if 'a' <= c && c <= 'z' {
				sc.total++
				sc.n[latin]++
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsLetter(r) {
			script := scriptOf(r)
			sc.total++
			sc.n[script]++
			if script == otherScript && sc.other == 0 {
				sc.other = r
			}
			r = unicode.ToLower(r)
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// scriptOf returns the script of the letter r.
func scriptOf(r rune) script {
	for sc := range otherScript {
		if unicode.Is(scripts[sc].table, r) {
			return sc
		}
	}
	return otherScript
}

// scriptName returns the Unicode name of the script of r, for a letter in
// none of scripts: found only when a reason names it.
func scriptName(r rune) string {
	// Unicode's scripts do not overlap: the map's order does not matter.
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return "another"
}
