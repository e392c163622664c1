package tokens

import (
	"fmt"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// --watch takes an optional value: pflag gives it one only when it is
// written --watch=N, so `--watch 2` leaves 2 among the arguments, `--watch
// ef95` watches session ef95, and `--watch -1` reads -1 as flags. The
// command line is read again here: a number right after a bare --watch is
// its interval, and a word there that is neither a number of seconds nor
// a session argument is an error that says how to write the interval,
// rather than "no such session" or "unknown shorthand flag".

// WatchFlag is the flag value of --watch, kept in p: never empty (an
// empty value would turn the watch off). Its type has no name, so help
// shows the flag as --watch[=5]: the value goes after an equals sign.
func WatchFlag(p *string) *WatchValue { return &WatchValue{p} }

// WatchValue is the pflag.Value of --watch.
type WatchValue struct{ p *string }

// Set keeps s, unless it is empty.
func (v *WatchValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("empty: write --watch=N for a redraw every N seconds, or --watch alone for every %s", DefaultWatch)
	}
	*v.p = s
	return nil
}

func (v *WatchValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return *v.p
}

// Type is empty: help then names no value after --watch (it would read
// as --watch SECONDS, which takes SECONDS for a session when it is not a
// number).
func (v *WatchValue) Type() string { return "" }

// WatchArgs takes the interval of a bare --watch from the arguments. raw
// is the command line, args the arguments pflag left, watch the value it
// gave --watch (DefaultWatch when it was given bare; "" when not at all).
// It returns the session arguments and the interval.
func WatchArgs(raw, args []string, watch string) (sessions []string, interval string, err error) {
	if watch != DefaultWatch {
		return args, watch, nil
	}
	next, ok := afterBareWatch(raw)
	switch {
	case !ok:
		return args, watch, nil
	case strings.HasPrefix(next, "-") && next != session.StdinPath:
		if len(next) > 1 && strings.IndexByte("0123456789.", next[1]) >= 0 { // -1: pflag read it as flags
			return nil, "", watchArgError(next, "the seconds between redraws are 1 or more")
		}
		return args, watch, nil // a flag
	}
	// pflag keeps the arguments in order: the one after --watch is the
	// last argument equal to it.
	j := -1
	for i, a := range args {
		if a == next {
			j = i
		}
	}
	switch {
	case j < 0: // the value of another flag
		return args, watch, nil
	case IsSeconds(next):
		return append(append([]string{}, args[:j]...), args[j+1:]...), next, nil
	case sessionLike(next):
		return args, watch, nil
	case numberish(next): // 5s, 2min, 1e3
		return nil, "", watchArgError(next, "not a number of seconds")
	}
	return nil, "", watchArgError(next, fmt.Sprintf("neither seconds between redraws nor a session (a prefix has %d characters at least; a session goes before --watch or after --watch=N)", session.MinPrefix))
}

// WatchFlagError is the error of a command line whose bare --watch is
// followed by a negative number (pflag, reading it as flags, finds no
// flag -1), nil for any other.
func WatchFlagError(raw []string) error {
	_, _, err := WatchArgs(raw, nil, DefaultWatch)
	return err
}

// afterBareWatch is the word after the first --watch written without a
// value, before a "--".
func afterBareWatch(raw []string) (string, bool) {
	for i, a := range raw {
		switch {
		case a == "--":
			return "", false
		case a == "--watch" && i+1 < len(raw) && raw[i+1] != "--":
			return raw[i+1], true
		}
	}
	return "", false
}

// sessionLike reports whether s could be a <session> argument: "-",
// "latest", a path, or a prefix of an id. A word that starts as a number
// does but holds a letter no id has (5s, 2min, 1,5) is not one: it is an
// interval written wrong.
func sessionLike(s string) bool {
	switch {
	case s == session.StdinPath, s == "latest", strings.ContainsAny(s, `/\`), strings.HasSuffix(s, ".jsonl"), strings.HasSuffix(s, ".jsonl.zst"):
		return true
	case len(s) < session.MinPrefix:
		return false
	case !numberish(s):
		return true
	}
	return strings.Trim(strings.ToLower(s), "0123456789abcdef-") == ""
}

// numberish reports whether s starts as a number does.
func numberish(s string) bool { return s != "" && strings.IndexByte("0123456789.+", s[0]) >= 0 }

// watchArgError says what is wrong with the word after --watch and how
// to write the interval: as --watch=5 when the word reads as a duration
// (5s), else --watch=N.
func watchArgError(word, why string) error {
	try := "--watch=N (N seconds, 1 or more)"
	if d, err := time.ParseDuration(word); err == nil && d >= time.Second {
		try = fmt.Sprintf("--watch=%g", d.Seconds())
	}
	return fmt.Errorf("--watch %q: %s: write the interval as %s", word, why, try)
}
