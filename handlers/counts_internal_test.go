package handlers

import (
	"strconv"
	"testing"
)

// TestCountedPostsForgetTheOldest checks that the renderings remembered
// for posts without JavaScript are bounded: past maxCountedPosts the
// oldest is forgotten, the others are still known.
func TestCountedPostsForgetTheOldest(t *testing.T) {
	var s seenPosts
	for i := range maxCountedPosts {
		if !s.first("r" + strconv.Itoa(i)) {
			t.Fatalf("rendering %d taken for one posted before", i)
		}
	}
	if s.first("r0") || s.first("r1") {
		t.Fatal("a rendering posted again is counted again")
	}
	s.first("new")
	if !s.first("r0") {
		t.Error("the oldest rendering is still remembered past the bound")
	}
	if s.first("r2") {
		t.Error("a rendering within the bound is forgotten")
	}
	if len(s.seen) != maxCountedPosts || len(s.order) != maxCountedPosts {
		t.Errorf("%d renderings remembered, %d in order; want %d", len(s.seen), len(s.order), maxCountedPosts)
	}
}

// TestPendingCountsBounded checks that the counts held for hubs that do
// not take them are bounded: past maxPendingCounts a new form's, step's or
// event's count is dropped, and counted as dropped, while those held go on
// adding up.
func TestPendingCountsBounded(t *testing.T) {
	c := newHubCounter(nil, 0)
	c.start.Do(func() {}) // no sending: the hubs never answer
	for i := range maxPendingCounts {
		c.Count("acme", "form"+strconv.Itoa(i), "view", "", 1)
	}
	c.Count("acme", "one-more", "view", "", 3)
	c.Count("acme", "form0", "view", "", 2)
	if len(c.pending) != maxPendingCounts || c.dropped != 3 {
		t.Errorf("%d counts held, %d dropped; want %d and 3", len(c.pending), c.dropped, maxPendingCounts)
	}
	if n := c.pending[countKey{Form{Site: "acme", Slug: "form0"}, "view", ""}]; n != 3 {
		t.Errorf("a count held adds up to %d, want 3", n)
	}
}
