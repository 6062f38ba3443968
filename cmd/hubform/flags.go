package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// flagSet is a subcommand's flags plus its help text.
type flagSet struct {
	*flag.FlagSet
	name, head, tail string
	help             bool
	stderr           io.Writer
}

// newFlagSet returns the flags of subcommand name; its help prints head,
// the flags, then tail.
func newFlagSet(name, head, tail string, stderr io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name, head: head, tail: tail, stderr: stderr}
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Run \"hubform %s --help\" for usage.\n", name) }
	fs.BoolVar(&fs.help, "help", false, "show this help")
	fs.BoolVar(&fs.help, "h", false, "show this help")
	return fs
}

// fail says what is wrong on standard error, after "hubform NAME: ", and
// returns status, the command's exit code.
func (fs *flagSet) fail(status int, format string, a ...any) int {
	fmt.Fprintf(fs.stderr, "hubform %s: %s\n", fs.name, fmt.Sprintf(format, a...))
	return status
}

// printHelp writes the whole help text to w.
func (fs *flagSet) printHelp(w io.Writer) {
	fmt.Fprint(w, strings.TrimLeft(fs.head, "\n"))
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "h" || f.Name == "help" {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n    \t%s", strings.ReplaceAll(usage, "\n", "\n    \t"))
		if variable := environment[fs.name][f.Name]; variable != "" {
			fmt.Fprintf(w, " (%s)", variable)
		}
		if def := defaultText(f); def != "" {
			fmt.Fprintf(w, " (default %s)", def)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprint(w, fs.tail)
}

// defaultText is how help shows f's default: quoted when the flag takes a
// string, bare when it takes a number, a duration or anything else, and
// empty when the default is the type's zero value, which needs no mention.
func defaultText(f *flag.Flag) string {
	// The zero value of the flag's type, made as flag.PrintDefaults does.
	if t := reflect.TypeOf(f.Value); t.Kind() == reflect.Pointer {
		if zero, ok := reflect.New(t.Elem()).Interface().(flag.Value); ok && f.DefValue == zero.String() {
			return ""
		}
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return strconv.Quote(f.DefValue)
		}
	}
	return f.DefValue
}

// parse sets the flags from their environment variables (see environment),
// then parses the command line's flags, which win, that may stand before,
// between or after the positional arguments ("--" ends the flags), and
// returns the positional ones. When ok
// is false the command should exit with status: 0 after printing help, 2
// after a parse error.
func (fs *flagSet) parse(args []string, stdout io.Writer) (positional []string, status int, ok bool) {
	if err := fs.setFromEnv(); err != nil {
		fmt.Fprintf(fs.Output(), "hubform %s: %v\n", fs.name, err)
		return nil, 2, false
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, 2, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if stop := len(args) - len(rest); stop > 0 && args[stop-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if fs.help {
		fs.printHelp(stdout)
		return nil, 0, false
	}
	return positional, 0, true
}

// parseVerb parses args as parse does and takes the first argument left
// as the command's verb, one of verbs: none, or another, is refused with
// the list. It returns the verb and the arguments after it.
func (fs *flagSet) parseVerb(args []string, stdout io.Writer, verbs ...string) (verb string, rest []string, status int, ok bool) {
	if args, status, ok = fs.parse(args, stdout); !ok {
		return "", nil, status, false
	}
	list := strings.Join(verbs[:len(verbs)-1], ", ") + " or " + verbs[len(verbs)-1]
	switch {
	case len(args) == 0:
		return "", nil, fs.fail(2, "say %s (see hubform %s --help)", list, fs.name), false
	case !slices.Contains(verbs, args[0]):
		return "", nil, fs.fail(2, "unknown action %q: say %s", args[0], list), false
	}
	return args[0], args[1:], 0, true
}

// setFromEnv sets each flag that has an environment variable (see
// environment) to that variable's value, when it is set. A value the flag
// cannot take is an error that names the variable: a setting that was
// meant is never dropped for the default.
func (fs *flagSet) setFromEnv() error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		variable := environment[fs.name][f.Name]
		if variable == "" || err != nil {
			return
		}
		v, ok := os.LookupEnv(variable)
		if !ok {
			return
		}
		if fs.Set(f.Name, v) != nil {
			err = fmt.Errorf("%s=%q: --%s takes %s", variable, v, f.Name, valueKind(f))
		}
	})
	return err
}

// valueKind says what values flag f takes, for an error message.
func valueKind(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "another value"
	}
	switch g.Get().(type) {
	case time.Duration:
		return "a duration, such as 90s, 15m or 24h"
	case int, int64, uint, uint64:
		return "a whole number"
	case bool:
		return "true or false"
	}
	return "another value"
}
