package complete

import (
	"os"
	"path"
	"strings"
	"unicode"

	"github.com/spf13/cobra"
)

// zoneDirs are where time.LoadLocation reads the zones --tz names, in
// its order: $ZONEINFO (a directory; a zip of zones is not listed), then
// the system's.
func zoneDirs() []string {
	return []string{os.Getenv("ZONEINFO"), "/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/etc/zoneinfo"}
}

// TimeZones completes --tz: local, UTC, and the IANA names of the zones
// this computer has (Europe/, then Europe/Paris), a folder at a time.
func TimeZones(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return timeZonesIn(zoneDirs(), toComplete)
}

// timeZonesIn is TimeZones over the first of dirs that exists.
func timeZonesIn(dirs []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, v := range []string{"local\tthis computer's time zone", "UTC"} {
		if strings.HasPrefix(v, toComplete) {
			out = append(out, v)
		}
	}
	folder, _ := path.Split(toComplete) // "Europe/" of "Europe/Pa"
	directive := cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	if folder != "" && !zoneFolder(folder) {
		return out, directive // "/", "./", "Europe//", "posix/": no zone's name
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		ents, err := os.ReadDir(path.Join(d, folder))
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := folder + e.Name()
			if !isZoneName(e.Name()) || !strings.HasPrefix(name, toComplete) || name == "UTC" {
				continue
			}
			if isDir(e, path.Join(d, folder)) {
				name += "/"
				directive |= cobra.ShellCompDirectiveNoSpace // Europe/ goes on to its zones
			}
			out = append(out, name)
		}
		break
	}
	return out, directive
}

// isZoneName reports whether a zoneinfo file or folder is one of the IANA
// names (Europe, Paris, GMT+1; not zone.tab, posixrules, or posix/ and
// right/, the same zones again).
func isZoneName(name string) bool {
	r := []rune(name)
	return len(r) > 0 && unicode.IsUpper(r[0]) && !strings.Contains(name, ".")
}

// zoneFolder reports whether folder ("America/Argentina/") is a path of
// zone names, as --tz takes them.
func zoneFolder(folder string) bool {
	for _, part := range strings.Split(strings.TrimSuffix(folder, "/"), "/") {
		if !isZoneName(part) {
			return false
		}
	}
	return true
}

// isDir reports whether the entry e of dir is a folder, or a link to one
// (a region linked to another's files).
func isDir(e os.DirEntry, dir string) bool {
	if e.Type()&os.ModeSymlink == 0 {
		return e.IsDir()
	}
	st, err := os.Stat(path.Join(dir, e.Name()))
	return err == nil && st.IsDir()
}
