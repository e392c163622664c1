package cache

// ForCommand is the store a command reads and updates: nil when off
// (--no-cache), when CCTX_NO_CACHE asks for none, or when there is no
// directory for it (said through note, as what goes wrong with the store
// later is).
func ForCommand(off bool, getenv func(string) string, home string, note func(format string, args ...any)) *Store {
	if off || Disabled(getenv) {
		return nil
	}
	dir, err := Dir(getenv, home)
	if err != nil {
		note("no cache: %v", err)
		return nil
	}
	return Open(dir, note)
}
