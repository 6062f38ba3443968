package sqldb

// WaitingSubmissions returns how many submissions wait for the next batch.
func (db *DB) WaitingSubmissions() int {
	if db.batch == nil {
		return 0
	}
	db.batch.mu.Lock()
	defer db.batch.mu.Unlock()
	return len(db.batch.pending)
}
