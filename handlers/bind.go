package handlers

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-playground/form/v4"

	"github.com/hubform/hubform/hubclient"
)

// fileMark starts the text under which a file travels through the
// decoder, its index in the call's files, so that no text is taken for one.
const fileMark = "\x00file:"

// Bind fills dst, a pointer to a struct of yours, from a submission's
// values as OnSuccess receives them. Struct fields are matched by their
// `form` tag, else by their name, and converted by
// github.com/go-playground/form: text to string or a number, a checkbox to
// bool, checkboxes to a slice. A file field binds to hubclient.Attachment
// or []hubclient.Attachment: each file's name, size, type and key in the
// hub's storage, whether the browser uploaded it or the post carried it.
// An address binds to hubclient.Address, a matrix to map[string]string
// (map[string][]string with multiple), a signature to hubclient.Signature,
// a group to a slice of structs, a struct field per child.
//
//	type contact struct {
//		Name  string                 `form:"name"`
//		Age   int                    `form:"age"`
//		Files []hubclient.Attachment `form:"files"`
//	}
func Bind(values map[string]any, dst any) error {
	posted := make(url.Values, len(values))
	var files []hubclient.Attachment
	for name, v := range values {
		switch v := v.(type) {
		case string:
			posted[name] = []string{v}
		case []string:
			posted[name] = v
		case bool:
			posted[name] = []string{strconv.FormatBool(v)}
		case float64:
			posted[name] = []string{strconv.FormatFloat(v, 'f', -1, 64)}
		case map[string]any:
			// A composite value's parts: "addr.city" fills a struct such
			// as hubclient.Address, "grid[speed]" a map.
			for part, pv := range v {
				list := bindTexts(pv)
				posted[name+"."+part] = list
				posted[name+"["+part+"]"] = list
			}
		case []any:
			// A group's items: "team[0].guest" fills a slice of structs.
			for i, item := range v {
				obj, ok := item.(map[string]any)
				if !ok {
					return fmt.Errorf("bind %q: item %d is a %T, not an object", name, i, item)
				}
				for child, cv := range obj {
					posted[name+"["+strconv.Itoa(i)+"]."+child] = bindTexts(cv)
				}
			}
		case []hubclient.Attachment:
			// A file travels through the decoder as its index in files.
			for _, f := range v {
				posted.Add(name, fileMark+strconv.Itoa(len(files)))
				files = append(files, f)
			}
		default:
			return fmt.Errorf("bind %q: values of type %T are not supported", name, v)
		}
	}
	// The decoder is made per call: its file function reads this call's files.
	d := form.NewDecoder()
	file := func(s string) (hubclient.Attachment, bool) {
		n, ok := strings.CutPrefix(s, fileMark)
		i, err := strconv.Atoi(n)
		if !ok || err != nil || i < 0 || i >= len(files) {
			return hubclient.Attachment{}, false
		}
		return files[i], true
	}
	d.RegisterCustomTypeFunc(func(v []string) (any, error) {
		f, ok := file(v[0])
		if !ok {
			return nil, fmt.Errorf("not a file of this submission")
		}
		return f, nil
	}, hubclient.Attachment{})
	// A signature is its drawing, a file, or the name typed in its place.
	d.RegisterCustomTypeFunc(func(v []string) (any, error) {
		if f, ok := file(v[0]); ok {
			return hubclient.Signature{Drawing: &f}, nil
		}
		return hubclient.Signature{Name: v[0]}, nil
	}, hubclient.Signature{})
	if err := d.Decode(dst, posted); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	return nil
}

// bindTexts is a value of a part or of a group's child as the decoder
// reads it: its texts.
func bindTexts(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case bool:
		return []string{strconv.FormatBool(v)}
	case float64:
		return []string{strconv.FormatFloat(v, 'f', -1, 64)}
	case []any:
		var list []string
		for _, e := range v {
			list = append(list, bindTexts(e)...)
		}
		return list
	}
	return nil
}
