package hubclient

import (
	"strconv"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	xnumber "golang.org/x/text/number"
)

// validCurrency reports whether code is an ISO 4217 currency code.
func validCurrency(code string) bool {
	_, err := currency.ParseISO(code)
	return err == nil && len(code) == 3
}

// FormatValue returns a calculation's value v as people of locale write it
// ("en", "de", "pt-BR"; empty or unknown is English): a number with its
// digits grouped, an amount with its currency's symbol, a percentage. A
// text is itself, a boolean "yes" or "no" in English, nil (not worked out)
// empty. It is the one way the form, the hub's pages, exports and messages
// write a calculation.
func (c *Calculation) FormatValue(v any, locale string) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case float64:
		return c.formatNumber(v, locale)
	case int:
		return c.formatNumber(float64(v), locale)
	}
	return ""
}

func (c *Calculation) formatNumber(v float64, locale string) string {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.English
	}
	p := message.NewPrinter(tag)
	switch c.Format {
	case FormatCurrency:
		unit, err := currency.ParseISO(c.Currency)
		if err != nil {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		if c.Decimals != nil {
			// The symbol, then the amount with the digits asked for.
			return p.Sprint(currency.Symbol(unit)) + "\u00a0" + p.Sprint(xnumber.Decimal(v, xnumber.Scale(*c.Decimals)))
		}
		return p.Sprint(currency.Symbol(unit.Amount(v)))
	case FormatPercent:
		return p.Sprint(xnumber.Percent(v, xnumber.Scale(c.decimals(0))))
	}
	if c.Decimals != nil {
		return p.Sprint(xnumber.Decimal(v, xnumber.Scale(*c.Decimals)))
	}
	return p.Sprint(xnumber.Decimal(v, xnumber.MaxFractionDigits(2)))
}

func (c *Calculation) decimals(def int) int {
	if c.Decimals != nil {
		return *c.Decimals
	}
	return def
}
