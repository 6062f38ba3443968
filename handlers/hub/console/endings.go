package console

import (
	"cmp"

	"github.com/hubform/hubform/handlers/hub/funnel"
	"github.com/hubform/hubform/hubclient"
)

// endingTitle names the ending of id for its form's owner: its title in
// schema, or its id when it has none or the form no longer has it; ""
// for none.
func endingTitle(schema *hubclient.Schema, id string) string {
	if id == "" {
		return ""
	}
	if schema != nil {
		if e := schema.Ending(id); e != nil {
			return cmp.Or(e.Title, id)
		}
	}
	return id
}

// endingStages are the funnel's bars of the endings reached, each by its
// title (its id when it has none), the thank-you panel last; their widths
// are out of the largest.
func endingStages(endings []funnel.EndingStat) []funnelStage {
	var out []funnelStage
	var top int64
	for _, e := range endings {
		label := cmp.Or(e.Title, e.ID)
		if e.ID == "" {
			label = "Thank-you panel (no ending)"
		}
		out = append(out, funnelStage{Key: "ending:" + e.ID, Label: label, N: e.Reached})
		top = max(top, e.Reached)
	}
	for i := range out {
		out[i].Width = funnelBar(out[i].N, top)
	}
	return out
}
