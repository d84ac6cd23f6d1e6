package rewrite

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testPlan is a plan of the given size made at the given time.
func testPlan(id string, size int64, created time.Time) *Plan {
	return &Plan{result: &Result{ID: id}, size: size, created: created}
}

// clockStore is a store whose clock the test moves, and which records drops.
func clockStore(limits StoreLimits) (*Store, *time.Time, *[]string) {
	now := time.Unix(1_000_000, 0)
	var drops []string
	s := NewStore(limits, func(id, reason string) { drops = append(drops, id+": "+reason) })
	s.now = func() time.Time { return now }
	return s, &now, &drops
}

func ids(plans []*Plan) []string {
	out := []string{}
	for _, p := range plans {
		out = append(out, p.ID())
	}
	return out
}

func TestStoreBounds(t *testing.T) {
	t.Run("count", func(t *testing.T) {
		s, now, drops := clockStore(StoreLimits{MaxPlans: 2})
		for _, id := range []string{"a", "b", "c"} {
			s.Add(testPlan(id, 1, *now))
		}
		if diff := cmp.Diff([]string{"b", "c"}, ids(s.Plans())); diff != "" {
			t.Errorf("pending (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"a: more than 2 previews pending"}, *drops); diff != "" {
			t.Errorf("drops (-want +got):\n%s", diff)
		}
		if _, err := s.Take("a"); err == nil || !strings.Contains(err.Error(), "edit a was dropped (more than 2 previews pending): preview the edit again") {
			t.Errorf("Take(dropped): %v", err)
		}
	})
	t.Run("age", func(t *testing.T) {
		s, now, drops := clockStore(StoreLimits{MaxAge: time.Minute})
		s.Add(testPlan("old", 1, *now))
		*now = now.Add(40 * time.Second)
		s.Add(testPlan("new", 1, *now))
		*now = now.Add(30 * time.Second)
		if s.Get("old") != nil || s.Get("new") == nil {
			t.Errorf("pending after 70s: %v", ids(s.Plans()))
		}
		if diff := cmp.Diff([]string{"old: older than 1m0s"}, *drops); diff != "" {
			t.Errorf("drops (-want +got):\n%s", diff)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		s, now, drops := clockStore(StoreLimits{MaxBytes: 100})
		s.Add(testPlan("a", 60, *now))
		s.Add(testPlan("b", 30, *now))
		s.Add(testPlan("c", 30, *now))
		if diff := cmp.Diff([]string{"b", "c"}, ids(s.Plans())); diff != "" {
			t.Errorf("pending (-want +got):\n%s", diff)
		}
		s.Add(testPlan("huge", 500, *now)) // alone over the budget: still kept, the others go
		if diff := cmp.Diff([]string{"huge"}, ids(s.Plans())); diff != "" {
			t.Errorf("pending (-want +got):\n%s", diff)
		}
		if len(*drops) != 3 {
			t.Errorf("drops: %v", *drops)
		}
	})
}

// TestStoreTakeOnce: a preview is applied at most once; a declined apply
// may put it back.
func TestStoreTakeOnce(t *testing.T) {
	s, now, _ := clockStore(DefaultStoreLimits)
	s.Add(testPlan("e1", 1, *now))
	p, err := s.Take("e1")
	if err != nil || p.ID() != "e1" {
		t.Fatalf("Take: %v, %v", p, err)
	}
	if _, err := s.Take("e1"); err == nil || !strings.Contains(err.Error(), "edit e1 was already applied") {
		t.Errorf("second Take: %v", err)
	}
	s.Add(p) // the client declined: the preview stays for another try
	if _, err := s.Take("e1"); err != nil {
		t.Errorf("Take after a decline: %v", err)
	}
	s.Add(testPlan("e2", 1, *now))
	if err := s.Discard("e2"); err != nil {
		t.Errorf("Discard: %v", err)
	}
	if _, err := s.Take("e2"); err == nil || !strings.Contains(err.Error(), "edit e2 was discarded") {
		t.Errorf("Take after Discard: %v", err)
	}
	if err := s.Discard("nope"); err == nil || !strings.Contains(err.Error(), "no pending edit nope") {
		t.Errorf("Discard(unknown): %v", err)
	}
}

// TestStoreExclusive: one apply at a time; a waiting one gives up when its
// context ends.
func TestStoreExclusive(t *testing.T) {
	s := NewStore(DefaultStoreLimits, nil)
	release, err := s.Exclusive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Exclusive(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a second apply while the first runs: %v; want it to wait until its context ends", err)
	}
	release()
	again, err := s.Exclusive(context.Background())
	if err != nil {
		t.Fatalf("after the first apply ended: %v", err)
	}
	again()
}
