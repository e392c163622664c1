package render

import "fmt"

// ColorOn decides whether output is coloured: --color (always, never,
// auto), then for auto CLICOLOR_FORCE, then NO_COLOR, then whether stdout
// is a terminal whose TERM is not dumb. A --color of another value is an
// error the user fixes.
func ColorOn(flag string, getenv func(string) string, stdoutTTY bool) (bool, error) {
	switch flag {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		switch {
		case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
			return true, nil
		case getenv("NO_COLOR") != "":
			return false, nil
		}
		return stdoutTTY && getenv("TERM") != "dumb", nil
	}
	return false, fmt.Errorf("--color must be auto, always or never, not %q", flag)
}
