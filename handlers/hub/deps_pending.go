package hub

// Dependencies the hub's packages are being built on; this file goes once
// they import them themselves.
import (
	_ "github.com/PuerkitoBio/goquery"
	_ "github.com/go-playground/form/v4"
	_ "github.com/labstack/echo/v4"
	_ "github.com/pressly/goose/v3"
	_ "gocloud.dev/blob/fileblob"
	_ "golang.org/x/time/rate"
	_ "modernc.org/sqlite"
)
