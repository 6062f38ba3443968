package console

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/hubclient"
)

// summaryPath is a form's Summary tab: the results of each question.
func summaryPath(site, slug string) string { return formURL(site, slug) + "/summary" }

// summaryPeriods are the periods the summary offers, the days that end
// with today in UTC (0: all time), the default defaultSummaryPeriod.
var summaryPeriods = []funnelPeriod{{"7d", "Last 7 days", 7}, {"30d", "Last 30 days", 30}, {"12m", "Last 12 months", 365}, {"all", "All time", 0}}

const defaultSummaryPeriod = "all"

// Tallying the submissions stored before the hub counted answers, on the
// first summary of their form: tallyBatch a transaction, for no longer
// than tallyBudget a request. What is left is tallied by the next one.
const (
	tallyBatch  = 1000
	tallyBudget = 2 * time.Second
)

// newestAnswers is how many answers of a text question the summary
// shows, found among the newest newestScanned submissions of the period.
const (
	newestAnswers = 5
	newestScanned = 100
	// maxAnswerRunes is the longest answer shown whole; its submission
	// shows it all.
	maxAnswerRunes = 280
)

// summaryProps are what a form's summary shows.
type summaryProps struct {
	Site, Slug, Title string
	Links             []periodLink
	// Error says the period asked for is none of summaryPeriods; nothing
	// else is then shown.
	Error string
	// From is the chosen period's first day, zero for all time.
	From time.Time
	// Total is how many submissions the period counts, spam and deleted
	// ones left out.
	Total int64
	// Pending says submissions stored before the hub counted answers are
	// still being counted.
	Pending   bool
	Questions []summaryQuestion
	// Endings counts the endings reached, nil for a form without any.
	Endings *summaryEndings
}

// summaryQuestion is the results of one question.
type summaryQuestion struct {
	Name, Label string
	Kind        hubclient.Summary
	// Multiple says each answer may choose several options (checkboxes).
	Multiple bool
	// Answered is how many submissions answered it.
	Answered int64
	// Bars are a choice's options, a yes/no's two, a scale's points, an
	// NPS's eleven, each with its count and share of Answered.
	Bars []summaryBar
	// Average is a scale's or slider's mean, "4.2", with OutOf its top.
	Average, OutOf string
	// NPS is an NPS question's score and bands.
	NPS *npsResult
	// Ranks are a ranking's options, best average place first.
	Ranks []rankResult
	// Texts are the newest answers of a text question.
	Texts []textAnswer
	// Rows are a matrix's rows, each with a bar per column.
	Rows []matrixRow
}

// matrixRow is a row of a matrix with the share of those who answered
// the matrix that chose each column.
type matrixRow struct {
	Label string
	Bars  []summaryBar
}

// summaryBar is one answer's count and share.
type summaryBar struct {
	Label   string
	N       int64
	Percent string
	// Width is the bar's, out of 100: the share of Answered.
	Width int
}

// npsResult is a net promoter score: the share of promoters (9–10) less
// that of detractors (0–6), from −100 to +100, and the three bands.
type npsResult struct {
	Score string
	Bands []summaryBar
}

// rankResult is a ranking option's average place, 1 the best.
type rankResult struct {
	Label, Average string
	N              int64
	// avg is the average place, +Inf for an option never ranked.
	avg float64
}

// textAnswer is one of the newest answers of a text question, with the
// link to its submission.
type textAnswer struct {
	Text, Href, When string
}

func (con *Console) summary(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := summaryProps{Site: form.Site, Slug: form.Slug, Title: inbox.Title(form)}
	key := cmp.Or(c.QueryParam("period"), defaultSummaryPeriod)
	var period funnelPeriod
	for _, pp := range summaryPeriods {
		p.Links = append(p.Links, periodLink{Label: pp.Label, Href: summaryPath(form.Site, form.Slug) + "?period=" + pp.Key, Current: pp.Key == key})
		if pp.Key == key {
			period = pp
		}
	}
	if period.Key == "" {
		p.Error = "There is no such period: choose the last 7 or 30 days, the last 12 months or all time."
		return con.render(c, http.StatusBadRequest, summaryPage(p))
	}
	if period.Days > 0 {
		// Answers are counted by day in UTC: the period is whole days there.
		now := con.cfg.Now().UTC()
		p.From = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1-period.Days)
	}
	if p.Pending, err = con.tallyOlder(ctx, form); err != nil {
		return err
	}
	counts, err := con.cfg.Summaries.AnswerCounts(ctx, form.Site, form.Slug, p.From)
	if err != nil {
		return hub.Internal("counting the answers", err)
	}
	p.Total, p.Questions = summarise(form.Schema, counts)
	if p.Endings, err = con.endingsOf(ctx, form, p.From); err != nil {
		return err
	}
	if p.Total > 0 {
		if err := con.newestTexts(ctx, form, p.From, p.Questions); err != nil {
			return err
		}
	}
	return con.render(c, http.StatusOK, summaryPage(p))
}

// tallyOlder counts the answers of the form's submissions stored before
// the hub counted them, by the form's live fields, for as long as
// tallyBudget allows, and reports whether some are left.
func (con *Console) tallyOlder(ctx context.Context, form *hub.Form) (bool, error) {
	began := time.Now()
	tally := func(payload json.RawMessage) string { return hub.TalliesOf(form.Schema, payload) }
	for {
		_, more, err := con.cfg.Summaries.TallySubmissions(ctx, form.Site, form.Slug, tallyBatch, tally)
		if err != nil {
			return false, hub.Internal("counting the answers sent earlier", err)
		}
		if !more {
			return false, nil
		}
		if time.Since(began) > tallyBudget {
			return true, nil
		}
	}
}

// summarise returns the number of submissions counts holds, and the
// results of each question of schema that has answers to sum up, in the
// form's order. Answers to fields the form no longer has are left out.
func summarise(schema *hubclient.Schema, counts []hub.AnswerCount) (int64, []summaryQuestion) {
	byField := map[string]map[string]hub.AnswerCount{}
	for _, c := range counts {
		if byField[c.Field] == nil {
			byField[c.Field] = map[string]hub.AnswerCount{}
		}
		byField[c.Field][c.Answer] = c
	}
	total := byField[""][""].N
	if schema == nil {
		return total, nil
	}
	var out []summaryQuestion
	for i := range schema.Fields {
		f := &schema.Fields[i]
		kind := f.Summary()
		if kind == hubclient.NoSummary || f.Name == "" {
			continue
		}
		q := summaryQuestion{Name: f.Name, Label: cmp.Or(hubclient.Caption(f.Label), f.Name), Kind: kind}
		answers := byField[f.Name]
		switch kind {
		case hubclient.ChoiceSummary:
			if q.Multiple = f.TypeOf().IsList(); q.Multiple {
				q.Answered = answers[hubclient.Answered].N
			} else {
				q.Answered = sumN(answers)
			}
			for _, o := range f.Options {
				q.Bars = append(q.Bars, bar(cmp.Or(o.Label, o.Value), answers[o.Value].N, q.Answered))
			}
		case hubclient.YesNoSummary:
			q.Answered = sumN(answers)
			q.Bars = []summaryBar{bar("Yes", answers["true"].N, q.Answered), bar("No", answers["false"].N, q.Answered)}
		case hubclient.ScaleSummary, hubclient.NPSSummary:
			q.Answered = sumN(answers)
			var sum float64
			for _, a := range answers {
				sum += a.Sum
			}
			if q.Answered > 0 {
				q.Average = strconv.FormatFloat(math.Round(sum/float64(q.Answered)*10)/10, 'f', -1, 64)
			}
			q.Bars = scaleBars(f, answers, q.Answered)
			if _, hi, ok := f.Scale(); ok && kind == hubclient.ScaleSummary {
				q.OutOf = strconv.Itoa(hi)
			}
			if kind == hubclient.NPSSummary {
				q.NPS = nps(answers, q.Answered)
			}
		case hubclient.RankingSummary:
			for _, o := range f.Options {
				a := answers[o.Value]
				q.Answered = max(q.Answered, a.N)
				r := rankResult{Label: cmp.Or(o.Label, o.Value), N: a.N, avg: math.Inf(1)}
				if a.N > 0 {
					r.avg = a.Sum / float64(a.N)
					r.Average = strconv.FormatFloat(math.Round(r.avg*10)/10, 'f', 1, 64)
				}
				q.Ranks = append(q.Ranks, r)
			}
			// The best first; options never ranked last, in the form's order.
			slices.SortStableFunc(q.Ranks, func(a, b rankResult) int { return cmp.Compare(a.avg, b.avg) })
		case hubclient.TextSummary:
			q.Answered = answers[hubclient.Answered].N
		case hubclient.MatrixSummary:
			q.Answered = answers[hubclient.Answered].N
			for _, r := range f.Rows {
				row := matrixRow{Label: cmp.Or(r.Label, r.Value)}
				for _, c := range f.Columns {
					row.Bars = append(row.Bars, bar(cmp.Or(c.Label, c.Value), answers[hubclient.MatrixCell(r.Value, c.Value)].N, q.Answered))
				}
				q.Rows = append(q.Rows, row)
			}
		}
		out = append(out, q)
	}
	if c := schema.Calculation(hubclient.ScoreName); c != nil {
		out = append(out, scoreQuestion(c, byField[hubclient.ScoreName]))
	}
	return total, out
}

// scoreQuestion sums up the scores of a form that has one, as a slider's
// answers are: the average, and a bar per score given, lowest first.
func scoreQuestion(c *hubclient.Calculation, answers map[string]hub.AnswerCount) summaryQuestion {
	q := summaryQuestion{Name: c.Name, Label: c.Title(), Kind: hubclient.ScaleSummary, Answered: sumN(answers)}
	if c.Label == "" {
		q.Label = "Score"
	}
	var sum float64
	for _, a := range answers {
		sum += a.Sum
	}
	if q.Answered > 0 {
		q.Average = strconv.FormatFloat(math.Round(sum/float64(q.Answered)*10)/10, 'f', -1, 64)
	}
	q.Bars = scaleBars(&hubclient.Field{}, answers, q.Answered)
	return q
}

// sumN returns how many submissions gave one of the answers, each of
// which counts a submission once.
func sumN(answers map[string]hub.AnswerCount) int64 {
	var n int64
	for k, a := range answers {
		if k != hubclient.Answered {
			n += a.N
		}
	}
	return n
}

// bar returns the bar of n answers out of of.
func bar(label string, n, of int64) summaryBar {
	b := summaryBar{Label: label, N: n, Percent: percent(n, of)}
	if of > 0 {
		b.Width = int(math.Round(float64(n) * 100 / float64(of)))
	}
	return b
}

// scaleBars returns a bar for each point of a scale, rating or NPS, from
// its low end to its high end, and for a slider one for each value given,
// in order.
func scaleBars(f *hubclient.Field, answers map[string]hub.AnswerCount, of int64) []summaryBar {
	var out []summaryBar
	if lo, hi, ok := f.Scale(); ok {
		for n := lo; n <= hi; n++ {
			s := strconv.Itoa(n)
			out = append(out, bar(s, answers[s].N, of))
		}
		return out
	}
	values := make([]float64, 0, len(answers))
	for k := range answers {
		if v, err := strconv.ParseFloat(k, 64); err == nil {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	for _, v := range values {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		out = append(out, bar(s, answers[s].N, of))
	}
	return out
}

// nps returns the score and bands of an NPS question's answers.
func nps(answers map[string]hub.AnswerCount, of int64) *npsResult {
	var detractors, passives, promoters int64
	for k, a := range answers {
		switch n, _ := strconv.Atoi(k); {
		case n >= 9:
			promoters += a.N
		case n >= 7:
			passives += a.N
		default:
			detractors += a.N
		}
	}
	r := &npsResult{Score: "—", Bands: []summaryBar{
		bar("Detractors (0–6)", detractors, of), bar("Passives (7–8)", passives, of), bar("Promoters (9–10)", promoters, of),
	}}
	if of > 0 {
		score := int(math.Round(float64(promoters-detractors) * 100 / float64(of)))
		r.Score = strconv.Itoa(score)
		if score > 0 {
			r.Score = "+" + r.Score
		} else if score < 0 {
			r.Score = "−" + strconv.Itoa(-score)
		}
	}
	return r
}

// newestTexts fills the Texts of the text questions of qs with their
// newest answers in the period, read from the newest submissions through
// the inbox's index: a few are decoded, whatever the form's size.
func (con *Console) newestTexts(ctx context.Context, form *hub.Form, from time.Time, qs []summaryQuestion) error {
	cols := map[string]inbox.Column{}
	for _, c := range inbox.Columns(form.Schema) {
		cols[c.Name] = c
	}
	wanted := 0
	for _, q := range qs {
		if q.Kind == hubclient.TextSummary && q.Answered > 0 {
			wanted++
		}
	}
	if wanted == 0 {
		return nil
	}
	loc := con.location(ctx)
	f := hub.Filter{Site: form.Site, Slug: form.Slug, Spam: hub.NotSpam, Newest: true, Limit: newestScanned, From: from}
	err := con.cfg.Inbox.Store.ListSubmissions(ctx, f, func(s hub.Submission) error {
		var m map[string]any
		if json.Unmarshal(s.Payload, &m) != nil {
			return nil
		}
		for i := range qs {
			q := &qs[i]
			if q.Kind != hubclient.TextSummary || len(q.Texts) == newestAnswers {
				continue
			}
			if text := cols[q.Name].Text(m[q.Name]); text != "" {
				if r := []rune(text); len(r) > maxAnswerRunes {
					text = string(r[:maxAnswerRunes-1]) + "…"
				}
				q.Texts = append(q.Texts, textAnswer{Text: text, Href: inboxPath(form.Site, form.Slug) + "/" + s.ID, When: formatTime(s.CreatedAt, loc)})
			}
		}
		return nil
	})
	if err != nil {
		return hub.Internal("reading the newest answers", err)
	}
	return nil
}

// plural returns one when n is 1, else many.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// multipleNote says that a question of several choices may have shares
// that add up to more than all.
func multipleNote(q summaryQuestion) string {
	if q.Kind == hubclient.ChoiceSummary && q.Multiple {
		return "; several choices each, so the shares add up to more than 100%"
	}
	return ""
}
