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

// BashCompletion writes cobra's bash completion script with one change:
// on a TAB that inserts (the part every completion shares, or with
// show-all-if-ambiguous and menu-complete a completion), cobra's script
// gives bash several completions unescaped (it escapes one left alone
// only), so a project path with a space ("Mobile Documents") was
// inserted as two words (spf13/cobra#1740). Then each completion is
// escaped as one alone is; on a TAB that only lists them (COMP_TYPE ?
// and @) they stay as they are read. The script is written unchanged when cobra's
// has no longer the lines this changes (a test says so).
func BashCompletion(w io.Writer, script string) error {
	_, err := io.WriteString(w, PatchBashCompletion(script))
	return err
}

// PatchBashCompletion is the script BashCompletion writes.
func PatchBashCompletion(script string) string {
	// escapeAll is the branch added before the else of an if that
	// escapes a single completion, indented as that if is.
	escapeAll := func(indent string) string {
		var b strings.Builder
		for _, l := range []string{
			`elif [[ ${COMP_TYPE-} != 63 && ${COMP_TYPE-} != 64 ]]; then`,
			`    # cctx: a TAB that inserts (what the completions share, or one`,
			`    # of them in turn) inserts them escaped, or a space in a path`,
			`    # splits it (spf13/cobra#1740); one that only lists them (? @)`,
			`    # lists them as they are read.`,
			`    local i comp`,
			`    for i in "${!COMPREPLY[@]}"; do`,
			`        printf -v comp "%q" "${COMPREPLY[i]%%$tab*}" &>/dev/null || comp=$(printf "%q" "${COMPREPLY[i]%%$tab*}")`,
			`        COMPREPLY[i]=$comp`,
			`    done`,
		} {
			b.WriteString(indent + l + "\n")
		}
		return b.String()
	}
	// With descriptions: one left is escaped, else they are formatted.
	described := "    else\n        # Format the descriptions\n"
	// Without (cobra's short circuit): one left is escaped.
	plain := "            COMPREPLY[0]=$(printf \"%q\" \"${COMPREPLY[0]}\")\n        fi\n"
	if strings.Count(script, described) != 1 || strings.Count(script, plain) != 1 {
		return script
	}
	script = strings.Replace(script, described, escapeAll("    ")+described, 1)
	return strings.Replace(script, plain, strings.TrimSuffix(plain, "        fi\n")+escapeAll("        ")+"        fi\n", 1)
}
