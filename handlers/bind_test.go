package handlers_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/hubclient"
)

// ExampleBind fills a struct of the app's from the values OnSuccess
// receives.
func ExampleBind() {
	type contact struct {
		Name   string                 `form:"name"`
		Age    int                    `form:"age"`
		Agree  bool                   `form:"agree"`
		Topics []string               `form:"topics"`
		Files  []hubclient.Attachment `form:"files"`
	}
	// As OnSuccess gets them for a post of the contact form.
	values := map[string]any{
		"name": "Jane", "age": 42.0, "agree": true, "topics": []string{"sales", "support"},
		"files": []hubclient.Attachment{{Key: "uploads/1", Filename: "report.pdf", Size: 1024, MIME: "application/pdf", Field: "files"}},
	}
	var c contact
	if err := handlers.Bind(values, &c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, %d, agreed %v, topics %v, file %s\n", c.Name, c.Age, c.Agree, c.Topics, c.Files[0].Filename)
	// Output: Jane, 42, agreed true, topics [sales support], file report.pdf
}

func TestBind(t *testing.T) {
	a, b := hubclient.Attachment{Key: "uploads/a", Filename: "a.txt"}, hubclient.Attachment{Key: "uploads/b", Filename: "b.txt"}
	type target struct {
		Name    string
		Email   string                 `form:"email"`
		Score   float64                `form:"score"`
		Files   []hubclient.Attachment `form:"files"`
		Photo   hubclient.Attachment   `form:"photo"`
		Ignored string                 `form:"-"`
	}
	var got target
	err := handlers.Bind(map[string]any{"Name": "Jane", "email": "j@example.com", "score": 2.5, "files": []hubclient.Attachment{a, b}, "photo": []hubclient.Attachment{b}, "-": "x"}, &got)
	want := target{Name: "Jane", Email: "j@example.com", Score: 2.5, Files: []hubclient.Attachment{a, b}, Photo: b}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Bind = %+v, %v; want %+v", got, err, want)
	}
	for _, tc := range []struct {
		values map[string]any
		dst    any
		want   string
	}{
		{map[string]any{"age": "old"}, &struct {
			Age int `form:"age"`
		}{}, "bind: "},
		{map[string]any{"when": struct{}{}}, &struct{}{}, `bind "when": values of type struct {} are not supported`},
	} {
		if err := handlers.Bind(tc.values, tc.dst); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Bind(%v) = %v, want an error starting %q", tc.values, err, tc.want)
		}
	}
}

// TestBindComposite: an address binds to hubclient.Address, a matrix to a
// map, of strings or, with multiple, of lists: the types hubform gen
// writes.
func TestBindComposite(t *testing.T) {
	type target struct {
		Addr  hubclient.Address   `form:"addr"`
		Grid  map[string]string   `form:"grid"`
		Slots map[string][]string `form:"slots"`
	}
	var got target
	err := handlers.Bind(map[string]any{
		"addr":  map[string]any{"line1": "1 rue de la Paix", "city": "Paris", "country": "FR"},
		"grid":  map[string]any{"speed": "good", "care": "bad"},
		"slots": map[string]any{"mon": []string{"am", "pm"}, "tue": []any{"pm"}},
	}, &got)
	want := target{
		Addr:  hubclient.Address{Line1: "1 rue de la Paix", City: "Paris", Country: "FR"},
		Grid:  map[string]string{"speed": "good", "care": "bad"},
		Slots: map[string][]string{"mon": {"am", "pm"}, "tue": {"pm"}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Bind = %+v, %v; want %+v", got, err, want)
	}
}

// TestBindSignature: a signature binds to its drawing, or to the name
// typed in its place, even one that reads as a number.
func TestBindSignature(t *testing.T) {
	type target struct {
		Drawn hubclient.Signature `form:"drawn"`
		Typed hubclient.Signature `form:"typed"`
	}
	png := hubclient.Attachment{Key: "uploads/s", Filename: "signature.png", MIME: "image/png", Field: "drawn"}
	var got target
	err := handlers.Bind(map[string]any{"drawn": []hubclient.Attachment{png}, "typed": "0"}, &got)
	if err != nil || got.Drawn.Drawing == nil || *got.Drawn.Drawing != png || got.Drawn.Name != "" || got.Typed.Name != "0" || got.Typed.Drawing != nil {
		t.Errorf("Bind = %+v, %v", got, err)
	}
}

// TestBindGroup: a group binds to a slice of structs, as hubform gen
// writes it.
func TestBindGroup(t *testing.T) {
	type guest struct {
		Guest string   `form:"guest"`
		Age   int      `form:"age"`
		Diets []string `form:"diets"`
	}
	var got struct {
		Team []guest `form:"team"`
	}
	err := handlers.Bind(map[string]any{"team": []any{
		map[string]any{"guest": "Ada", "age": 36.0, "diets": []any{"veg"}},
		map[string]any{"guest": "Bob"},
	}}, &got)
	want := []guest{{Guest: "Ada", Age: 36, Diets: []string{"veg"}}, {Guest: "Bob"}}
	if err != nil || !reflect.DeepEqual(got.Team, want) {
		t.Errorf("Bind = %+v, %v; want %+v", got.Team, err, want)
	}
}
