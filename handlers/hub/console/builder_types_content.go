package console

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// The content blocks' settings: a heading's or a paragraph's text, an
// image's address and description. A divider has none.

// editContentSettings is editContent as the content types' editor.
func editContentSettings(f *hubclient.Field, i int, form url.Values) []error {
	return []error{editContent(f, i, form)}
}

// editContent sets the text of a heading or a paragraph, or the address
// and description of an image, as the panel posted them. An image is
// described unless marked decorative: visitors who do not see it are
// told what it shows.
func editContent(f *hubclient.Field, i int, form url.Values) error {
	switch f.Type {
	case hubclient.FieldHeading, hubclient.FieldParagraph:
		v, ok := form["text"]
		if !ok {
			return nil
		}
		text := strings.TrimSpace(strings.ReplaceAll(v[0], "\r\n", "\n"))
		if text == "" {
			return problem(fmt.Sprintf("fields[%d].text", i), "Write the %s's text", strings.ToLower(kindOf(f.Type).Word))
		}
		f.Text = text
	case hubclient.FieldImage:
		var errs []error
		if v, ok := form["src"]; ok {
			src := strings.TrimSpace(v[0])
			if !hubclient.WebAddress(src) {
				errs = append(errs, problem(fmt.Sprintf("fields[%d].src", i), "The image's address starts with https:// (or http://): %q is not one", src))
			} else {
				f.Src = src
			}
		}
		if _, ok := form["alt"]; ok {
			alt := strings.TrimSpace(form.Get("alt"))
			decorative := form.Get("decorative") != ""
			// A description given wins over the box: the image shows
			// something.
			switch {
			case alt != "":
				f.Alt = alt
			case decorative:
				f.Alt = ""
			default:
				errs = append(errs, problem(fmt.Sprintf("fields[%d].alt", i), "Say what the image shows, for visitors who cannot see it, or mark it decorative"))
			}
		}
		return errors.Join(errs...)
	}
	return nil
}
