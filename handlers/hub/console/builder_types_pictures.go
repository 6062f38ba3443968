package console

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// The pictures of a multiple choice's or checkboxes' options, each shown
// as a card.

// editPictures sets the pictures of the options of a radio or checkboxes
// field, posted by option value: "picture.VALUE", an http or https
// address or nothing, and "alt.VALUE", what it shows.
func editPictures(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	for k := range f.Options {
		o := &f.Options[k]
		src, ok := form["picture."+o.Value]
		if !ok {
			continue
		}
		img := strings.TrimSpace(src[0])
		alt := strings.TrimSpace(form.Get("alt." + o.Value))
		if img != "" && !hubclient.WebAddress(img) {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].options[%d].image", i, k),
				"The picture of the option “%s” is an address starting with https://: %q is not one", optionWords(o), img))
			continue
		}
		if img == "" {
			alt = ""
		}
		o.Image, o.Alt = img, alt
	}
	return errs
}

// hasPictures reports whether an option of f shows a picture.
func hasPictures(f *hubclient.Field) bool {
	return slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Image != "" })
}
