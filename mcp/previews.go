package mcp

import "sync"

// maxPreviews is how many previews are kept for paging and confirmation,
// as many as the server keeps plans (docs/protocol.md, structls.applyEdit).
const maxPreviews = 16

// previews keeps the newest previews by id.
type previews struct {
	mu    sync.Mutex
	order []string // oldest first
	byID  map[string]*preview
}

func newPreviews() *previews { return &previews{byID: map[string]*preview{}} }

// add keeps p, dropping the oldest preview beyond maxPreviews.
func (ps *previews) add(p *preview) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if _, ok := ps.byID[p.id]; !ok {
		ps.order = append(ps.order, p.id)
	}
	ps.byID[p.id] = p
	for len(ps.order) > maxPreviews {
		delete(ps.byID, ps.order[0])
		ps.order = ps.order[1:]
	}
}

func (ps *previews) get(id string) (*preview, bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.byID[id]
	return p, ok
}

// drop forgets an applied or discarded preview.
func (ps *previews) drop(id string) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if _, ok := ps.byID[id]; !ok {
		return
	}
	delete(ps.byID, id)
	for i, o := range ps.order {
		if o == id {
			ps.order = append(ps.order[:i], ps.order[i+1:]...)
			break
		}
	}
}
