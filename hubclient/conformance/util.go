package conformance

import "sort"

func sorted(s []string) []string {
	sort.Strings(s)
	return s
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
