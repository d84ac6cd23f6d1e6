package rewrite

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// StoreLimits bound the previews a Store keeps; past any of them the oldest
// previews are dropped.
type StoreLimits struct {
	MaxPlans int           // previews kept at once
	MaxAge   time.Duration // a preview older than this is dropped
	MaxBytes int64         // new texts and replacements held by all previews
}

// DefaultStoreLimits are the server's bounds on pending previews.
var DefaultStoreLimits = StoreLimits{MaxPlans: 16, MaxAge: 30 * time.Minute, MaxBytes: 256 << 20}

// rememberedGone is how many applied, discarded or dropped ids a Store
// remembers, to tell the user what became of them.
const rememberedGone = 256

// Store holds the pending previews of a server until they are applied,
// discarded or dropped. It is safe for concurrent use.
type Store struct {
	limits  StoreLimits
	dropped func(id, reason string) // told of every preview dropped by a bound
	now     func() time.Time
	// applying admits one apply at a time (Exclusive).
	applying chan struct{}

	mu       sync.Mutex
	plans    []*Plan           // oldest first
	bytes    int64             // held by plans
	gone     map[string]string // id → what became of it
	goneList []string          // the ids of gone, oldest first
	drops    [][2]string       // previews dropped under the lock, with the reasons, to report after it
}

// NewStore returns an empty store; dropped, when not nil, is told of each
// preview the limits drop (for the log).
func NewStore(limits StoreLimits, dropped func(id, reason string)) *Store {
	return &Store{limits: limits, dropped: dropped, now: time.Now, gone: map[string]string{}, applying: make(chan struct{}, 1)}
}

// Exclusive waits until no other apply of this store's plans is under way,
// or ctx ends, and returns the func that ends this one. An apply checks its
// files and makes (or sends) its edit under it, so that a second apply
// touching the same file is checked against the text the first one made,
// never beside it.
func (s *Store) Exclusive(ctx context.Context) (release func(), err error) {
	select {
	case s.applying <- struct{}{}:
		return func() { <-s.applying }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Add keeps a plan, dropping the oldest ones the limits no longer allow
// (never the plan just added).
func (s *Store) Add(p *Plan) {
	s.mu.Lock()
	s.plans = append(s.plans, p)
	s.bytes += p.size
	delete(s.gone, p.ID()) // a declined apply puts its plan back
	s.unlock()
}

// Get returns the pending plan with the id, or nil; the plan stays pending.
func (s *Store) Get(id string) *Plan {
	s.mu.Lock()
	defer s.unlock()
	s.enforceLocked()
	if i := s.indexLocked(id); i >= 0 {
		return s.plans[i]
	}
	return nil
}

// Plans returns the pending plans, oldest first.
func (s *Store) Plans() []*Plan {
	s.mu.Lock()
	defer s.unlock()
	s.enforceLocked()
	return slices.Clone(s.plans)
}

// Take removes the plan with the id and returns it, to be applied. Taking an
// id again is refused, so a preview is applied at most once; a caller whose
// apply was declined may Add the plan back.
func (s *Store) Take(id string) (*Plan, error) {
	return s.remove(id, "was already applied")
}

// Discard forgets the plan with the id; it reports an error if there was none.
func (s *Store) Discard(id string) error {
	_, err := s.remove(id, "was discarded")
	return err
}

func (s *Store) remove(id, fate string) (*Plan, error) {
	s.mu.Lock()
	defer s.unlock()
	s.enforceLocked()
	i := s.indexLocked(id)
	if i < 0 {
		if what, ok := s.gone[id]; ok {
			return nil, fmt.Errorf("edit %s %s: preview the edit again", id, what)
		}
		return nil, fmt.Errorf("no pending edit %s: preview the edit first, and pass the id it returns", id)
	}
	p := s.removeLocked(i)
	s.rememberLocked(id, fate)
	return p, nil
}

func (s *Store) indexLocked(id string) int {
	return slices.IndexFunc(s.plans, func(p *Plan) bool { return p.ID() == id })
}

func (s *Store) removeLocked(i int) *Plan {
	p := s.plans[i]
	s.plans = slices.Delete(s.plans, i, i+1)
	s.bytes -= p.size
	return p
}

func (s *Store) rememberLocked(id, fate string) {
	if _, ok := s.gone[id]; !ok {
		s.goneList = append(s.goneList, id)
	}
	s.gone[id] = fate
	for len(s.goneList) > rememberedGone {
		delete(s.gone, s.goneList[0])
		s.goneList = s.goneList[1:]
	}
}

// unlock enforces the limits, releases the lock and then tells the dropped
// callback (outside the lock, so it may use the store).
func (s *Store) unlock() {
	s.enforceLocked()
	drops := s.drops
	s.drops = nil
	s.mu.Unlock()
	if s.dropped != nil {
		for _, d := range drops {
			s.dropped(d[0], d[1])
		}
	}
}

// enforceLocked drops the previews past the age limit, then the oldest
// until the count and byte limits hold (the newest always stays), noting
// each in s.drops.
func (s *Store) enforceLocked() {
	drop := func(i int, reason string) {
		p := s.removeLocked(i)
		s.rememberLocked(p.ID(), "was dropped ("+reason+")")
		s.drops = append(s.drops, [2]string{p.ID(), reason})
	}
	now := s.now()
	for i := 0; i < len(s.plans); {
		if age := now.Sub(s.plans[i].created); s.limits.MaxAge > 0 && age > s.limits.MaxAge {
			drop(i, fmt.Sprintf("older than %v", s.limits.MaxAge))
			continue
		}
		i++
	}
	for len(s.plans) > 1 && s.limits.MaxPlans > 0 && len(s.plans) > s.limits.MaxPlans {
		drop(0, fmt.Sprintf("more than %d previews pending", s.limits.MaxPlans))
	}
	for len(s.plans) > 1 && s.limits.MaxBytes > 0 && s.bytes > s.limits.MaxBytes {
		drop(0, fmt.Sprintf("pending previews held more than %d bytes", s.limits.MaxBytes))
	}
}
