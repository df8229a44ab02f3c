module github.com/frcd/frcd

go 1.22.6

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	gopkg.in/yaml.v3 v3.0.1
	periph.io/x/conn/v3 v3.7.2
)

require golang.org/x/text v0.14.0 // indirect
