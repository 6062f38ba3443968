package hub

// The HTML-side packages pin these; until they import them, this keeps the
// pinned versions in go.mod.
import (
	_ "github.com/PuerkitoBio/goquery"
	_ "github.com/go-playground/form/v4"
)
