package main

import (
	"strings"

	"github.com/frcd/frcd/hal/backends"

	// The backends register themselves (the sim's through daemon).
	_ "github.com/frcd/frcd/hal/linux"
	_ "github.com/frcd/frcd/hal/roborio"
	_ "github.com/frcd/frcd/hal/systemcore"
	_ "github.com/frcd/frcd/sim"
)

// Every --hal help text, error and suggestion takes the backends from
// their registry (hal/backends), in its order.

// halChoices is the --hal argument as usage lines show it: sim|linux|...
var halChoices = strings.Join(backends.Names(), "|")

// backendList is the backends in a sentence: "sim, linux, roborio or systemcore".
func backendList() string { return orList(backends.Names()) }

// halHelp is run's --hal help: each backend's name and what it is.
func halHelp() string {
	var items []string
	for _, b := range backends.All() {
		items = append(items, b.Name+" ("+b.Help+")")
	}
	return "the HAL: " + orList(items)
}

// halHint is what run says when --hal is missing: each backend's --hal
// and where it runs.
func halHint() string {
	var items []string
	for _, b := range backends.All() {
		item := "--hal " + b.Name
		if b.Simulated {
			item += " (or --sim)"
		}
		items = append(items, item+" "+b.Hint)
	}
	return "which HAL? add " + strings.Join(items, ", ")
}

// orList is a list in a sentence: "a, b or c".
func orList(items []string) string {
	switch n := len(items); n {
	case 0:
		return ""
	case 1:
		return items[0]
	default:
		return strings.Join(items[:n-1], ", ") + " or " + items[n-1]
	}
}
