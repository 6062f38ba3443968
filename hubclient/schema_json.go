package hubclient

import (
	"bytes"
	"encoding/json"
)

// The JSON methods below route every schema type through decodeObject and
// encodeObject so that unknown members survive a round trip.

func (s *Schema) UnmarshalJSON(data []byte) error {
	type plain Schema
	var err error
	s.Extra, err = decodeObject(data, (*plain)(s))
	return err
}

func (s Schema) MarshalJSON() ([]byte, error) {
	type plain Schema
	// An empty form is served as "fields": [], never null.
	if s.Fields == nil {
		s.Fields = []Field{}
	}
	if s.Steps == nil {
		s.Steps = []Step{}
	}
	return encodeObject(plain(s), s.Extra)
}

func (f *Field) UnmarshalJSON(data []byte) error {
	type plain Field
	var err error
	f.Extra, err = decodeObject(data, (*plain)(f))
	return err
}

func (f Field) MarshalJSON() ([]byte, error) {
	type plain Field
	return encodeObject(plain(f), f.Extra)
}

func (o *Option) UnmarshalJSON(data []byte) error {
	if b := bytes.TrimSpace(data); len(b) > 0 && b[0] == '"' {
		*o = Option{}
		if err := json.Unmarshal(b, &o.Value); err != nil {
			return err
		}
		o.Label = o.Value
		return nil
	}
	type plain Option
	var err error
	o.Extra, err = decodeObject(data, (*plain)(o))
	return err
}

func (o Option) MarshalJSON() ([]byte, error) {
	type plain Option
	return encodeObject(plain(o), o.Extra)
}

func (s *Step) UnmarshalJSON(data []byte) error {
	type plain Step
	var err error
	s.Extra, err = decodeObject(data, (*plain)(s))
	return err
}

func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step
	if s.Fields == nil {
		s.Fields = []string{}
	}
	return encodeObject(plain(s), s.Extra)
}

func (b *Buttons) UnmarshalJSON(data []byte) error {
	type plain Buttons
	var err error
	b.Extra, err = decodeObject(data, (*plain)(b))
	return err
}

func (b Buttons) MarshalJSON() ([]byte, error) {
	type plain Buttons
	return encodeObject(plain(b), b.Extra)
}

func (m *Meta) UnmarshalJSON(data []byte) error {
	type plain Meta
	var err error
	m.Extra, err = decodeObject(data, (*plain)(m))
	return err
}

func (m Meta) MarshalJSON() ([]byte, error) {
	type plain Meta
	return encodeObject(plain(m), m.Extra)
}

func (i *I18n) UnmarshalJSON(data []byte) error {
	type plain I18n
	var err error
	i.Extra, err = decodeObject(data, (*plain)(i))
	return err
}

func (i I18n) MarshalJSON() ([]byte, error) {
	type plain I18n
	return encodeObject(plain(i), i.Extra)
}

func (t *Translation) UnmarshalJSON(data []byte) error {
	type plain Translation
	var err error
	t.Extra, err = decodeObject(data, (*plain)(t))
	return err
}

func (t Translation) MarshalJSON() ([]byte, error) {
	type plain Translation
	return encodeObject(plain(t), t.Extra)
}

func (f *FieldTranslation) UnmarshalJSON(data []byte) error {
	type plain FieldTranslation
	var err error
	f.Extra, err = decodeObject(data, (*plain)(f))
	return err
}

func (f FieldTranslation) MarshalJSON() ([]byte, error) {
	type plain FieldTranslation
	return encodeObject(plain(f), f.Extra)
}

func (s *StepTranslation) UnmarshalJSON(data []byte) error {
	type plain StepTranslation
	var err error
	s.Extra, err = decodeObject(data, (*plain)(s))
	return err
}

func (s StepTranslation) MarshalJSON() ([]byte, error) {
	type plain StepTranslation
	return encodeObject(plain(s), s.Extra)
}

func (e *Ending) UnmarshalJSON(data []byte) error {
	type plain Ending
	var err error
	e.Extra, err = decodeObject(data, (*plain)(e))
	return err
}

func (e Ending) MarshalJSON() ([]byte, error) {
	type plain Ending
	return encodeObject(plain(e), e.Extra)
}

func (e *EndingTranslation) UnmarshalJSON(data []byte) error {
	type plain EndingTranslation
	var err error
	e.Extra, err = decodeObject(data, (*plain)(e))
	return err
}

func (e EndingTranslation) MarshalJSON() ([]byte, error) {
	type plain EndingTranslation
	return encodeObject(plain(e), e.Extra)
}

func (c *Calculation) UnmarshalJSON(data []byte) error {
	type plain Calculation
	var err error
	c.Extra, err = decodeObject(data, (*plain)(c))
	return err
}

func (c Calculation) MarshalJSON() ([]byte, error) {
	type plain Calculation
	return encodeObject(plain(c), c.Extra)
}

func (q *Quiz) UnmarshalJSON(data []byte) error {
	type plain Quiz
	var err error
	q.Extra, err = decodeObject(data, (*plain)(q))
	return err
}

func (q Quiz) MarshalJSON() ([]byte, error) {
	type plain Quiz
	return encodeObject(plain(q), q.Extra)
}

func (t *Theme) UnmarshalJSON(data []byte) error {
	type plain Theme
	var err error
	t.Extra, err = decodeObject(data, (*plain)(t))
	return err
}

func (t Theme) MarshalJSON() ([]byte, error) {
	type plain Theme
	return encodeObject(plain(t), t.Extra)
}

func (c *ThemeColors) UnmarshalJSON(data []byte) error {
	type plain ThemeColors
	var err error
	c.Extra, err = decodeObject(data, (*plain)(c))
	return err
}

func (c ThemeColors) MarshalJSON() ([]byte, error) {
	type plain ThemeColors
	return encodeObject(plain(c), c.Extra)
}

func (i *ThemeImage) UnmarshalJSON(data []byte) error {
	type plain ThemeImage
	var err error
	i.Extra, err = decodeObject(data, (*plain)(i))
	return err
}

func (i ThemeImage) MarshalJSON() ([]byte, error) {
	type plain ThemeImage
	return encodeObject(plain(i), i.Extra)
}
