package console

import (
	"slices"

	"github.com/hubform/hubform/hubclient"
)

// fieldKind is a field type as owners know it: the group of the palette
// it is in, a word, a line of what it asks for and its icon.
type fieldKind struct {
	Group, Type, Word, About string
	// Icon is the path of its icon, on a 24-pixel grid.
	Icon string
}

// Groups of the palette, in its order.
const (
	groupChoices = "Choices"
	groupRatings = "Ratings"
	groupText    = "Text"
	groupDates   = "Date and time"
	groupContact = "Contact"
	groupFiles   = "Files and signature"
	groupLayout  = "Layout"
)

// kindGroups are the palette's groups in its order.
var kindGroups = []string{groupChoices, groupRatings, groupText, groupDates, groupContact, groupFiles, groupLayout}

// fieldKinds are the field types the builder offers, a line each, in the
// order of the palette within their group: a new type is one line here.
var fieldKinds = []fieldKind{
	{groupChoices, hubclient.FieldRadio, "Multiple choice", "One choice of a few", "M4 12a8 8 0 1 0 16 0a8 8 0 1 0-16 0M9.5 12a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0-5 0"},
	{groupChoices, hubclient.FieldSelect, "Dropdown", "One choice of a list", "M3 6h18v12H3zM13 11l2.5 2.5L18 11"},
	{groupChoices, hubclient.FieldCheckboxes, "Checkboxes", "Any choices of a few", "M4 4h7v7H4zM5.5 7.5 7 9l2.5-3M4 14h7v7H4zM14 7h6M14 17h6"},
	{groupChoices, hubclient.FieldCheckbox, "Yes/No", "One box to tick, such as consent", "M4 4h16v16H4zM8 12l3 3 5-6"},
	{groupChoices, hubclient.FieldMatrix, "Matrix", "Rows answered from the same columns", "M3 4h18v16H3zM3 9h18M3 14.5h18M9 4v16"},
	{groupChoices, hubclient.FieldRanking, "Ranking", "The options in an order of preference", "M4 6h2M4 12h2M4 18h2M9 6h11M9 12h8M9 18h5"},
	{groupRatings, hubclient.FieldRating, "Rating", "Stars, 1 to 5", "M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 3 1.1-6.2L3 9.7l6.2-.9z"},
	{groupRatings, hubclient.FieldScale, "Linear scale", "A number on a scale, 1 to 5", "M3 9h4v6H3zM10 9h4v6h-4zM17 9h4v6h-4z"},
	{groupRatings, hubclient.FieldNPS, "Net Promoter Score", "How likely, 0 to 10, to recommend", "M3 16a9 9 0 0 1 18 0M12 16l4-5"},
	{groupRatings, hubclient.FieldSlider, "Slider", "A number between two ends", "M3 12h18M9 12a3 3 0 1 0 0 .1"},
	{groupText, hubclient.FieldText, "Short answer", "One line of text", "M4 9h16M4 15h10"},
	{groupText, hubclient.FieldTextarea, "Long answer", "A few lines or paragraphs", "M4 6h16M4 10h16M4 14h16M4 18h10"},
	{groupText, hubclient.FieldNumber, "Number", "A number", "M10 4 8 20M16 4l-2 16M5 9h15M4 15h15"},
	{groupText, hubclient.FieldHidden, "Hidden value", "Taken from the page's address, never shown", "M3 3l18 18M10.6 6.1A9 9 0 0 1 12 6c5 0 9 6 9 6a15 15 0 0 1-3 3.4M6.6 6.6A15 15 0 0 0 3 12s4 6 9 6a8 8 0 0 0 4-1"},
	{groupDates, hubclient.FieldDate, "Date", "A day of the calendar", "M3 5h18v16H3zM3 10h18M8 3v4M16 3v4"},
	{groupDates, hubclient.FieldTime, "Time", "A time of day", "M3 12a9 9 0 1 0 18 0a9 9 0 1 0-18 0M12 7v5l3 2"},
	{groupDates, hubclient.FieldDateTime, "Date and time", "A day and a time", "M3 5h11v11H3zM3 9h11M6 3v3M11 3v3M14 17a4 4 0 1 0 8 0a4 4 0 1 0-8 0M18 15.5V17l1 1"},
	{groupContact, hubclient.FieldEmail, "Email", "An e-mail address", "M4 6h16v12H4zM4 7l8 6 8-6"},
	{groupContact, hubclient.FieldTel, "Phone", "A phone number", "M6 3h3l2 5-2.5 1.5a11 11 0 0 0 6 6L16 13l5 2v3a2 2 0 0 1-2 2A16 16 0 0 1 4 5a2 2 0 0 1 2-2"},
	{groupContact, hubclient.FieldURL, "Website", "A link", "M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1"},
	{groupContact, hubclient.FieldAddress, "Address", "A postal address, street to country", "M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11zM9.5 10a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0-5 0"},
	{groupFiles, hubclient.FieldFile, "File upload", "One file or several", "M12 15V4M7 9l5-5 5 5M4 15v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4"},
	{groupFiles, hubclient.FieldSignature, "Signature", "Drawn, or a typed name without scripts", "M3 17c3-6 5-9 6-8s-2 8 0 8 3-5 5-5 1 4 3 4 2-1 4-1M3 21h18"},
	{groupLayout, hubclient.FieldGroup, "Repeated group", "A few questions asked again for each person or item", "M4 4h16v6H4zM4 14h16v6H4zM12 11v2"},
	{groupLayout, hubclient.FieldHeading, "Heading", "A title between questions", "M6 4v16M18 4v16M6 12h12"},
	{groupLayout, hubclient.FieldParagraph, "Paragraph", "Text with emphasis, links and lists", "M4 6h16M4 10h16M4 14h16M4 18h7"},
	{groupLayout, hubclient.FieldImage, "Image", "A picture, described for who cannot see it", "M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 9a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0"},
	{groupLayout, hubclient.FieldDivider, "Divider", "A line between questions", "M3 12h18"},
}

// kindOf returns the kind of field type t; an unknown type is its own word.
func kindOf(t string) fieldKind {
	if i := slices.IndexFunc(fieldKinds, func(k fieldKind) bool { return k.Type == t }); i >= 0 {
		return fieldKinds[i]
	}
	return fieldKind{Type: t, Word: t}
}

// kindGroup is a group of the palette with its kinds.
type kindGroup struct {
	Name  string
	Kinds []fieldKind
}

// kindsByGroup returns the kinds for which keep holds, by group in the
// palette's order, leaving out groups left empty.
func kindsByGroup(keep func(fieldKind) bool) []kindGroup {
	var out []kindGroup
	for _, g := range kindGroups {
		kg := kindGroup{Name: g}
		for _, k := range fieldKinds {
			if k.Group == g && keep(k) {
				kg.Kinds = append(kg.Kinds, k)
			}
		}
		if len(kg.Kinds) > 0 {
			out = append(out, kg)
		}
	}
	return out
}

// anyKind keeps every kind.
func anyKind(fieldKind) bool { return true }
