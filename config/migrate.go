package config

import (
	"bytes"
	"fmt"

	"github.com/frcd/frcd/diag"
	"gopkg.in/yaml.v3"
)

// Migrate rewrites a robot file in frcd's canonical forms: frc_control's
// forms (see frccontrol.go) become the ones frcd writes, each noted in
// list. Comments stay on the nodes they were written with, as far as
// yaml.v3 keeps them (a comment between a key and its value may move).
// changed is false when the file had none of those forms; out is then
// data itself. A file that is not YAML is an error.
func Migrate(path string, data []byte) (out []byte, list diag.List, changed bool, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, false, fmt.Errorf("%s: invalid YAML: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return data, nil, false, nil
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return data, nil, false, nil
	}
	p := &parser{file: &File{Path: path, byName: map[string]*Device{}}, path: path, list: &list}
	doc.Content[0] = p.canonicalize(root)
	if list.Notes() == 0 {
		return data, list, false, nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, list, false, fmt.Errorf("%s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return nil, list, false, fmt.Errorf("%s: %w", path, err)
	}
	return b.Bytes(), list, true, nil
}
