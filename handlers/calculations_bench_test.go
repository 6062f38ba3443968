package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
)

// calcBenchForms returns two forms of ten number and choice fields, the
// second with 20 calculations: a price per field, sums over them, points,
// a score, half of them shown.
func calcBenchForms() (plain, calc string) {
	var fields, names []string
	for i := range 10 {
		name := fmt.Sprintf("f%d", i)
		names = append(names, `"`+name+`"`)
		if i%2 == 0 {
			fields = append(fields, fmt.Sprintf(`{"name": %q, "type": "number", "label": "Number %d"}`, name, i))
		} else {
			fields = append(fields, fmt.Sprintf(`{"name": %q, "type": "radio", "label": "Choice %d", "options": [{"value": "a", "points": 1}, {"value": "b", "points": 3, "correct": true}]}`, name, i))
		}
	}
	base := `"fields": [` + strings.Join(fields, ",") + `], "steps": [{"id": "s", "fields": [` + strings.Join(names, ",") + `]}]`
	var calcs []string
	for i := range 20 {
		var expr string
		switch {
		case i < 5:
			expr = fmt.Sprintf(`{"*": [{"var": "f%d"}, 35]}`, 2*i)
		case i < 10:
			expr = fmt.Sprintf(`{"points": "f%d"}`, 2*(i-5)+1)
		case i < 19:
			expr = fmt.Sprintf(`{"+": [{"var": "c%d"}, {"var": "c%d"}, 1]}`, i-10, i-5)
		default:
			expr = `{"+": [{"var": "c5"}, {"var": "c6"}, {"var": "c7"}, {"var": "c8"}, {"var": "c9"}]}`
		}
		name := fmt.Sprintf("c%d", i)
		if i == 19 {
			name = "score"
		}
		calcs = append(calcs, fmt.Sprintf(`{"name": %q, "expr": %s, "format": "currency", "currency": "EUR", "show": %t}`, name, expr, i%2 == 0))
	}
	return "{" + base + "}", "{" + base + `, "calculations": [` + strings.Join(calcs, ",") + `], "quiz": {"showAnswers": true}}`
}

// BenchmarkCalculationsCost measures what 20 calculations cost the logic
// route and the submit route (the app's and, behind it, the hub's, which
// works them out again and stores them): the same form without and with
// them, in turn in one loop; extra-ns/op is the difference (goal: at most
// 1 ms).
func BenchmarkCalculationsCost(b *testing.B) {
	plain, calc := calcBenchForms()
	for _, s := range []string{plain, calc} {
		if !json.Valid([]byte(s)) {
			b.Fatalf("not JSON: %s", s)
		}
	}
	h := hubtest.Start(b, map[string]string{"acme/plain": plain, "acme/calc": calc})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, NoCounts: true})
	b.Cleanup(func() { forms.Close(context.Background()) })
	srv := httptest.NewServer(forms)
	b.Cleanup(srv.Close)
	values := url.Values{}
	for i := range 10 {
		if i%2 == 0 {
			values.Set(fmt.Sprintf("f%d", i), "3")
		} else {
			values.Set(fmt.Sprintf("f%d", i), "b")
		}
	}

	measure := func(b *testing.B, op func(slug string)) {
		op("plain") // the schemas cached
		op("calc")
		var with, without time.Duration
		for b.Loop() {
			began := time.Now()
			op("plain")
			without += time.Since(began)
			began = time.Now()
			op("calc")
			with += time.Since(began)
		}
		b.ReportMetric(float64(with.Nanoseconds())/float64(b.N), "with-ns/op")
		b.ReportMetric(float64(without.Nanoseconds())/float64(b.N), "without-ns/op")
		b.ReportMetric(float64((with-without).Nanoseconds())/float64(b.N), "extra-ns/op")
	}
	post := func(b *testing.B, route string, header http.Header) func(slug string) {
		return func(slug string) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hubform/acme/"+slug+"/"+route, strings.NewReader(values.Encode()))
			req.Header = header.Clone()
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatalf("%s %s: status %d", route, slug, res.StatusCode)
			}
		}
	}
	b.Run("logic", func(b *testing.B) { measure(b, post(b, "logic", http.Header{"Hx-Request": {"true"}})) })
	b.Run("submit", func(b *testing.B) { measure(b, post(b, "submit", http.Header{})) })
}
