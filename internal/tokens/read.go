package tokens

import (
	"github.com/cctx-dev/cctx/internal/reader"
)

// ReadFile streams one transcript into the counter. Skipped lines go to
// o.OnIssue; only a read error that stops the file is returned.
func (c *Counter) ReadFile(src Source, o reader.Options) error {
	r, closer, err := reader.Open(src.Path, o)
	if err != nil {
		return err
	}
	defer closer.Close()
	f := c.File(src)
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		f.Add(&e)
	}
	return r.Err()
}
