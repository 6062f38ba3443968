package components

import (
	"runtime"
	"sync"
	"weak"

	"github.com/hubform/hubform/hubclient"
)

// prepared is what rendering a form needs of its schema in one locale,
// whatever the values shown: worked out once per schema and locale.
type prepared struct {
	l Localized
	// logic is the schema's conditions, nil when they cannot be read (the
	// form then shows every field).
	logic *hubclient.Logic
	// hasFiles makes the form post multipart and show upload progress.
	hasFiles bool
	// outsideSteps are fields no step names (hidden ones), rendered last.
	outsideSteps []string
	// sum is the schema's fingerprint for l.Locale when it was prepared.
	sum uint64
}

// prepare works out what rendering s in locale needs.
func prepare(s *hubclient.Schema, locale string) *prepared {
	l := Localize(s, locale)
	p := &prepared{l: l, sum: fingerprint(s, l.Locale)}
	if logic, err := hubclient.Compile(l.Schema); err == nil {
		p.logic = logic
	}
	inStep := map[string]bool{}
	for _, step := range l.Schema.Steps {
		for _, name := range step.Fields {
			inStep[name] = true
		}
	}
	for _, f := range l.Schema.Fields {
		if f.TypeOf().TakesFiles() {
			p.hasFiles = true
		}
		if !inStep[f.Name] {
			p.outsideSteps = append(p.outsideSteps, f.Name)
		}
	}
	return p
}

// memo keeps what prepare works out, by schema pointer and locale: the
// handlers keep one *hubclient.Schema per form for minutes and render
// every page of it from that pointer.
//
// An entry is used only while the schema's fingerprint is what it was
// when the entry was made, so a schema changed in place between renders is
// prepared again, not served stale (but for the fingerprint's chance of a
// collision, 2⁻⁶⁴); a caller building a new schema per request
// only pays for the fingerprint and a few map operations more. Entries
// hold the schema weakly: one is dropped when its schema is collected, and
// there are never more than maxPrepared.
type memo struct {
	mu      sync.Mutex
	schemas map[weak.Pointer[hubclient.Schema]]*memoSchema
	size    int // prepared entries held, over all schemas
	// built counts the entries made, for tests.
	built int
}

type memoSchema struct {
	locales map[string]*prepared
	cleanup runtime.Cleanup
}

// maxPrepared bounds the memo: forms are few, but locales come from URLs
// and schemas may be built per request. One entry of a 30-field form
// takes about 30 KB.
const maxPrepared = 256

var schemaMemo = &memo{schemas: map[weak.Pointer[hubclient.Schema]]*memoSchema{}}

// get returns what rendering s in locale needs: remembered when s,
// the same pointer with the same contents, was rendered in locale before.
// The result is shared: read it, never change it.
func (m *memo) get(s *hubclient.Schema, locale string) *prepared {
	key := weak.Make(s)
	m.mu.Lock()
	var p *prepared
	if e := m.schemas[key]; e != nil {
		p = e.locales[locale]
	}
	m.mu.Unlock()
	if p != nil && p.sum == fingerprint(s, p.l.Locale) {
		return p
	}
	p = prepare(s, locale)
	m.store(key, s, locale, p)
	return p
}

func (m *memo) store(key weak.Pointer[hubclient.Schema], s *hubclient.Schema, locale string, p *prepared) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.built++
	e := m.schemas[key]
	if e == nil {
		e = &memoSchema{locales: map[string]*prepared{}}
		e.cleanup = runtime.AddCleanup(s, m.forget, key)
		m.schemas[key] = e
	}
	if _, ok := e.locales[locale]; !ok {
		if m.size >= maxPrepared {
			m.evict(key)
		}
		m.size++
	}
	e.locales[locale] = p
}

// evict drops the entries of one schema other than keep, or, when keep is
// the only one, one of its locales: a rare, bounded event. It is called
// with m.mu held.
func (m *memo) evict(keep weak.Pointer[hubclient.Schema]) {
	for key, e := range m.schemas {
		if key == keep {
			continue
		}
		// Stop cancels the cleanup for sure only while the schema is
		// reachable; one that is already queued finds nothing to drop.
		s := key.Value()
		e.cleanup.Stop()
		runtime.KeepAlive(s)
		delete(m.schemas, key)
		m.size -= len(e.locales)
		return
	}
	for locale := range m.schemas[keep].locales {
		delete(m.schemas[keep].locales, locale)
		m.size--
		return
	}
}

// forget drops the entries of a schema that has been collected.
func (m *memo) forget(key weak.Pointer[hubclient.Schema]) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.schemas[key]; e != nil {
		delete(m.schemas, key)
		m.size -= len(e.locales)
	}
}
