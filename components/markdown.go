package components

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// paragraphMarkdown reads the safe subset of Markdown a paragraph field's
// text is written in: paragraphs, lists, emphasis and links (and indented
// text, kept as it is, in a code block). Raw HTML is
// shown as text, an image as its alt text, and a link leads to an http,
// https or mailto address alone, in a new tab.
var paragraphMarkdown = goldmark.New(goldmark.WithParser(parser.NewParser(
	parser.WithBlockParsers(
		util.Prioritized(parser.NewListParser(), 300),
		util.Prioritized(parser.NewListItemParser(), 400),
		// Indented text would be lost without a parser of code blocks.
		util.Prioritized(parser.NewCodeBlockParser(), 500),
		util.Prioritized(parser.NewParagraphParser(), 1000),
	),
	parser.WithInlineParsers(
		util.Prioritized(parser.NewLinkParser(), 200),
		util.Prioritized(parser.NewAutoLinkParser(), 300),
		util.Prioritized(parser.NewEmphasisParser(), 500),
	),
	parser.WithASTTransformers(util.Prioritized(safeLinks{}, 100)),
)))

// paragraphHTML returns the HTML of a paragraph field's text.
func paragraphHTML(markdown string) string {
	var b bytes.Buffer
	if err := paragraphMarkdown.Convert([]byte(markdown), &b); err != nil {
		return "" // the writer is a buffer; conversion does not fail
	}
	return b.String()
}

// safeLinks keeps the links to http, https and mailto addresses, opened in
// a new tab so that the form keeps what was typed, and turns any other
// link, and every image, into its text.
type safeLinks struct{}

func (safeLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var unwrap []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			unwrap = append(unwrap, n)
		case *ast.Link:
			if !safeURL(string(n.Destination)) {
				unwrap = append(unwrap, n)
				break
			}
			n.SetAttributeString("target", "_blank")
			n.SetAttributeString("rel", "noopener noreferrer")
		case *ast.AutoLink:
			if !safeURL(string(n.URL(source))) {
				unwrap = append(unwrap, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unwrap {
		parent := n.Parent()
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, n, ast.NewString(a.Label(source)))
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

// safeURL reports whether a link may lead to u: an absolute http, https
// or mailto address.
func safeURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return false
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		return p.Host != ""
	case "mailto":
		return p.Opaque != ""
	}
	return false
}
