package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/resume"
)

// The shells a resume command is written for.
const (
	ShellPOSIX      = "posix"      // sh, bash, zsh, fish 3.x
	ShellPowerShell = "powershell" // Windows
)

// ShellQuote quotes s for a POSIX shell: in single quotes, where nothing
// is special ($, `, \, newlines stay what they are), with each ' written
// as '\”. A string that holds what a terminal would act on (an escape
// sequence, a C1 or bidirectional control, invalid UTF-8: see Safe) is
// written $'…' with those as \xHH and \uHHHH escapes, so that printing
// the command shows it as it is (bash, zsh, ksh and POSIX.1-2024 sh read
// it back).
func ShellQuote(s string) string {
	if plain := strings.NewReplacer("\n", "", "\t", "").Replace(s); Safe(plain) == plain {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Safe(string(r)) != string(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// PowerShellQuote quotes s for PowerShell: in single quotes, with each '
// doubled (PowerShell also takes the typographic quotes ‘ ’ ‚ ‛ as
// quotes: they are doubled too).
func PowerShellQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'', '‘', '’', '‚', '‛':
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// ResumeCommand is the command line that resumes a session: go to its
// directory, then run claude --resume <id> (with CLAUDE_CONFIG_DIR when
// needed), quoted for shell.
func ResumeCommand(t resume.Target, shell string) string {
	args := strings.Join(t.Args(), " ") // a session id is hex and dashes
	if shell == ShellPowerShell {
		cmd := "Set-Location -LiteralPath " + PowerShellQuote(t.Dir) + "; "
		if t.ConfigDir != "" {
			cmd += "$env:CLAUDE_CONFIG_DIR = " + PowerShellQuote(t.ConfigDir) + "; "
		}
		return cmd + args
	}
	env := ""
	if t.ConfigDir != "" {
		env = "CLAUDE_CONFIG_DIR=" + ShellQuote(t.ConfigDir) + " "
	}
	cd := "cd "
	if strings.HasPrefix(t.Dir, "-") {
		cd = "cd -- " // a directory, not an option
	}
	return cd + ShellQuote(t.Dir) + " && " + env + args
}

// Resume writes the resume command (cctx resume --print).
func Resume(w io.Writer, t resume.Target, shell string) error {
	_, err := fmt.Fprintln(w, ResumeCommand(t, shell))
	return err
}
