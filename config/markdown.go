package config

import (
	"fmt"
	"strings"
)

// Markdown is docs/devices.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("<!-- Generated from config's device tables by `make docs`; do not edit. -->\n")
	b.WriteString("# Device types\n\n")
	b.WriteString("Every entry of a robot YAML's `joints:` list has a `name` and a `type`, plus the keys of its type below. " +
		"`frcd describe TYPE` prints the same tables; `frcd schema` prints a JSON Schema of the file for editors. " +
		"The `controllers:`, `loop:` and `sim:` sections follow the devices.\n\n")
	group := ""
	for _, t := range Types() {
		if t.Group != group {
			group = t.Group
			fmt.Fprintf(&b, "## %s\n\n", strings.ToUpper(plural(group)[:1])+plural(group)[1:])
		}
		fmt.Fprintf(&b, "### `%s`\n\n%s WPILib class `%s`.\n\n", t.Name, t.Summary, t.Class)
		fmt.Fprintf(&b, "Its name is %s.\n\n%s\n\n", mdEscape(t.Place.doc()), t.Doc)
		mdKeys(&b, t)
	}
	b.WriteString("## Controllers\n\n")
	b.WriteString("Controllers are declared in ros_control's style: `controllers:` is a list of entries with a `name`, " +
		"or a mapping of names to entries (`arm_controller: {type: ..., joint: arm_joint, pid: {p: 10}}`). " +
		"Types take ros_controllers' names where one means the same thing (`joint_state_controller/JointStateController`, " +
		"`effort_controllers/JointPositionController`...); `voltage_controllers/...` and `frcd_controllers/...` are frcd's own. " +
		"Each command controller listens on `/NAME/command` and claims its joints' command interfaces: a second " +
		"controller on the same joint is an error. A command older than the timeout is dropped and the output goes " +
		"neutral; a command that is not a finite number, not -1, 0 or 1 for a tri-state, or of the wrong length for a " +
		"group is refused and counted (on /diagnostics), and never reaches an output.\n\n")
	for _, t := range ControllerTypes() {
		fmt.Fprintf(&b, "### `%s`\n\n%s\n\n%s\n\n", t.Name, t.Summary, t.Doc)
		mdKeys(&b, t)
	}
	b.WriteString("## Sections\n\n")
	for _, t := range sectionTypes() {
		fmt.Fprintf(&b, "### `%s`\n\n%s\n\n%s\n\n", t.Name, t.Summary, t.Doc)
		mdKeys(&b, t)
	}
	fmt.Fprintf(&b, "### `hal`\n\n%s\n\n```yaml\nhal: roborio\n```\n\n", halDoc)
	return b.String()
}

func mdKeys(b *strings.Builder, t *Type) {
	b.WriteString("| key | type | required | default | meaning |\n|---|---|---|---|---|\n")
	if t.named() {
		fmt.Fprintf(b, "| `name` | string | %s | | %s |\n", t.nameRequired(), mdEscape(t.nameDoc()))
	}
	if t.Group != "section" {
		fmt.Fprintf(b, "| `type` | string | yes | | Must be `%s`. |\n", t.Name)
	}
	for _, k := range t.Keys {
		req := "no"
		if k.Required {
			req = "yes"
		}
		def := k.DefaultString()
		if def != "" && k.DefaultDoc == "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", k.Name, k.Kind, req, def, mdEscape(k.meaning()))
	}
	fmt.Fprintf(b, "\n```yaml\n%s```\n\n", t.exampleYAML(""))
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "<", "&lt;")
	return strings.ReplaceAll(s, ">", "&gt;")
}
