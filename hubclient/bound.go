package hubclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Bound is a field's min or max: a number for number fields, a date
// (YYYY-MM-DD) for date fields, kept as written. In a schema it is a JSON
// number or a string; "" is no bound.
type Bound string

func (b *Bound) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*b = ""
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*b = Bound(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return errors.New("a bound is a number or a date string")
	}
	*b = Bound(n)
	return nil
}

// MarshalJSON writes a bound that reads as a number as a JSON number, any
// other as a string.
func (b Bound) MarshalJSON() ([]byte, error) {
	if b.isNumber() {
		return []byte(b), nil
	}
	return json.Marshal(string(b))
}

// isNumber reports whether b is a JSON number literal.
func (b Bound) isNumber() bool {
	return b != "" && json.Valid([]byte(b)) && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9'))
}

// Number returns the bound as a number, and whether it is one.
func (b Bound) Number() (float64, bool) {
	n, err := strconv.ParseFloat(string(b), 64)
	return n, err == nil && b.isNumber()
}

// Day returns the bound as a date, in days since 1970-01-01, and whether
// it is one.
func (b Bound) Day() (float64, bool) { return dayNumber(string(b)) }
