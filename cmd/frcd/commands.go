package main

import (
	"io"
)

// A command is one subcommand of frcd.
type command struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) int
	// help is what run is given for `frcd NAME --help` (default --help
	// alone): a command with words before its flags names them.
	help []string
}

// commands are frcd's subcommands, in the order the usage lists them.
// A function, not a variable: help refers back to the table.
func commands() []command {
	return []command{
		{name: "run", run: runDaemon},
		{name: "deploy", run: deployRobot},
		{name: "can", run: canCommand, help: []string{"scan", "--help"}},
		{name: "validate", run: validate},
		{name: "migrate", run: migrate},
		{name: "describe", run: describe},
		{name: "schema", run: schema},
		{name: "log", run: logCommand},
		{name: "version", run: versionCommand},
		{name: "help", run: helpCommand},
	}
}

// commandNames lists the subcommands, for suggestions and the docs test.
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// helpRequested says whether the arguments ask for help (-h, -help or
// --help before any --).
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// runCommand runs a subcommand. `frcd CMD --help` prints CMD's usage and
// flags on stdout and exits 0, whatever else stands beside it.
func runCommand(c command, args []string, stdout, stderr io.Writer) int {
	if !helpRequested(args) {
		return c.run(args, stdout, stderr)
	}
	help := c.help
	if help == nil {
		help = []string{"--help"}
	}
	c.run(help, stdout, stdout) // its exit status is the usage error of --help
	return exitOK
}
