package store

// Unsynced makes this handle's write transactions skip fsync until restore is
// called. It exists to generate large benchmark stores quickly (ctx bench
// scale): a crash while it is on can lose the commits made meanwhile, so no
// ctx command that stores a real run ever calls it.
func (s *Store) Unsynced() (restore func()) {
	s.mu.Lock()
	s.noSync = true
	if s.db != nil {
		s.db.NoSync = true
	}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.noSync = false
		if s.db != nil {
			s.db.NoSync = false
			_ = s.db.Sync()
		}
		s.mu.Unlock()
	}
}
