package formsource

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// A form file's secrets are the values of its "hub" member that let whoever
// reads them act as the hub: the captcha's secret key (hub.captchaSecret),
// and each webhook's URL, which often carries the receiver's token, and
// signing secret (hub.webhooks[].url and .secret). Those who may not read
// them see the file with each replaced by a mark saying it is set
// (HideSecrets); a file posted back with the marks keeps the values the
// stored file has (KeepSecrets), so that a member who may edit the form but
// not read its secrets replaces a secret without ever seeing it.

// hiddenMark starts the mark that stands for a secret's value. The rest
// names the value by a short hash, so that a mark posted back finds its
// value wherever it moved to in the file.
const hiddenMark = "[set, hidden #"

// hidden returns the mark of the secret v of the kind ("captchaSecret",
// "url", "secret"): its hash covers the kind, so that a mark stands for a
// secret in a place of its kind alone.
func hidden(kind, v string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + v))
	return hiddenMark + hex.EncodeToString(sum[:4]) + "]"
}

// HasHidden reports whether body holds a mark of a hidden secret.
func HasHidden(body []byte) bool { return bytes.Contains(body, []byte(hiddenMark)) }

// IsHidden reports whether s is the mark of a hidden secret.
func IsHidden(s string) bool { return strings.HasPrefix(s, hiddenMark) }

// secretPlace is a secret the file sets: its JSON path, its kind and its
// value.
type secretPlace struct {
	Path, Kind, Value string
}

// secretsOf returns the secrets body sets, and false when its "hub" member
// does not have the shape of the settings, so that they cannot be found
// one by one.
func secretsOf(body []byte) ([]secretPlace, bool) {
	var file struct {
		Hub *struct {
			CaptchaSecret *string `json:"captchaSecret"`
			Webhooks      []struct {
				URL    *string `json:"url"`
				Secret *string `json:"secret"`
			} `json:"webhooks"`
			Destinations []struct {
				URL *string `json:"url"`
			} `json:"destinations"`
		} `json:"hub"`
	}
	if json.Unmarshal(body, &file) != nil {
		return nil, false
	}
	if file.Hub == nil {
		return nil, true
	}
	var out []secretPlace
	add := func(path, kind string, v *string) {
		if v != nil && *v != "" {
			out = append(out, secretPlace{path, kind, *v})
		}
	}
	add("hub.captchaSecret", "captchaSecret", file.Hub.CaptchaSecret)
	for i, h := range file.Hub.Webhooks {
		at := "hub.webhooks[" + strconv.Itoa(i) + "]"
		add(at+".url", "url", h.URL)
		add(at+".secret", "secret", h.Secret)
	}
	for i, d := range file.Hub.Destinations {
		add("hub.destinations["+strconv.Itoa(i)+"].url", "url", d.URL)
	}
	return out, true
}

// HideSecrets returns body with the value of each of its secrets replaced
// by a mark that says it is set: the form file as those who may not read
// its secrets see it. A body that is not JSON is returned as it is: every
// stored version was parsed as JSON when it was saved, and what a person
// typed into the editor is theirs.
func HideSecrets(body []byte) []byte {
	if !json.Valid(body) {
		return body
	}
	places, ok := secretsOf(body)
	if ok {
		out := body
		for _, p := range places {
			if IsHidden(p.Value) {
				continue
			}
			mark, _ := json.Marshal(hidden(p.Kind, p.Value))
			for _, enc := range encodings(p.Value) {
				out = bytes.ReplaceAll(out, enc, mark)
			}
		}
		// The file may write a value with escapes of its own, which the
		// replacement above misses: then it is written anew.
		if left, ok := secretsOf(out); ok && allHidden(left) {
			return out
		}
	}
	return hideRewritten(body)
}

// encodings are the ways a JSON encoder writes the string v.
func encodings(v string) [][]byte {
	plain, _ := json.Marshal(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return [][]byte{plain, bytes.TrimSuffix(b.Bytes(), []byte("\n"))}
}

func allHidden(places []secretPlace) bool {
	for _, p := range places {
		if !IsHidden(p.Value) {
			return false
		}
	}
	return true
}

// hideRewritten decodes body, replaces its secrets' values, or the whole of
// a member that would hold them in a shape not theirs, by marks and encodes
// it again.
func hideRewritten(body []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return []byte(`"` + hiddenMark + `file]"`)
	}
	if _, ok := top["hub"]; !ok {
		return body
	}
	var settings map[string]json.RawMessage
	if json.Unmarshal(top["hub"], &settings) != nil {
		top["hub"] = hideRaw("hub", top["hub"])
		return marshalFile(top)
	}
	if raw, ok := settings["captchaSecret"]; ok {
		settings["captchaSecret"] = hideRaw("captchaSecret", raw)
	}
	for member, keys := range map[string][]string{"webhooks": {"url", "secret"}, "destinations": {"url"}} {
		raw, ok := settings[member]
		if !ok {
			continue
		}
		var list []map[string]json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			settings[member] = hideRaw(member, raw)
			continue
		}
		for _, h := range list {
			for _, k := range keys {
				if raw, ok := h[k]; ok {
					h[k] = hideRaw(k, raw)
				}
			}
		}
		settings[member], _ = json.Marshal(list)
	}
	top["hub"], _ = json.Marshal(settings)
	return marshalFile(top)
}

// hideRaw returns the mark of the value raw encodes: of the string, or of
// the JSON of another value. An empty string or a mark stays as it is.
func hideRaw(kind string, raw json.RawMessage) json.RawMessage {
	var v string
	if json.Unmarshal(raw, &v) != nil {
		v = string(raw)
	} else if v == "" || IsHidden(v) {
		return raw
	}
	out, _ := json.Marshal(hidden(kind, v))
	return out
}

func marshalFile(top map[string]json.RawMessage) []byte {
	out, _ := json.MarshalIndent(top, "", "  ")
	return out
}

// ErrHiddenUnknown is a posted file's mark of a hidden secret that no
// secret of the stored file of its kind answers to: the secret it stood
// for was changed or removed since the page was shown, or the mark was
// moved to where no secret of its kind goes.
var ErrHiddenUnknown = errors.New("a hidden secret is not one this form holds here: type its value again")

// KeepSecrets returns posted with each mark of a hidden secret replaced by
// the value it stands for in stored: what a member who does not see the
// secrets posts back keeps them. A value posted in place of a mark
// replaces the secret. A mark stands only for a secret of its kind (the
// captcha's key, a webhook's URL, a webhook's secret) and only at a place
// of that kind, alone in its string, so that no edit moves a secret where
// it is shown or sent elsewhere; any other mark is a *Problem wrapping
// ErrHiddenUnknown at its place.
func KeepSecrets(posted, stored []byte) ([]byte, error) {
	if !HasHidden(posted) {
		return posted, nil
	}
	known := map[string]string{}
	if places, ok := secretsOf(stored); ok {
		for _, p := range places {
			known[hidden(p.Kind, p.Value)] = p.Value
		}
	}
	places, ok := secretsOf(posted)
	if !ok {
		return nil, &Problem{Path: "hub", Err: ErrHiddenUnknown}
	}
	marks := 0
	for _, p := range places {
		if !IsHidden(p.Value) {
			continue
		}
		if _, ok := known[p.Value]; !ok || p.Value != hidden(p.Kind, known[p.Value]) {
			return nil, &Problem{Path: p.Path, Err: ErrHiddenUnknown}
		}
		marks++
	}
	if bytes.Count(posted, []byte(hiddenMark)) != marks {
		return nil, &Problem{Path: "hub", Err: ErrHiddenUnknown}
	}
	out := posted
	for mark, v := range known {
		m, _ := json.Marshal(mark)
		enc, _ := json.Marshal(v)
		out = bytes.ReplaceAll(out, m, enc)
	}
	if left, ok := secretsOf(out); !ok || !noneHidden(left) {
		return nil, &Problem{Path: "hub", Err: ErrHiddenUnknown}
	}
	return out, nil
}

func noneHidden(places []secretPlace) bool {
	for _, p := range places {
		if IsHidden(p.Value) {
			return false
		}
	}
	return true
}
