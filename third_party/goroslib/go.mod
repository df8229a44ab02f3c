module github.com/bluenviron/goroslib/v2

go 1.20

require github.com/gookit/color v1.5.4

require (
	github.com/xo/terminfo v0.0.0-20210125001918-ca9a967f8778 // indirect
	golang.org/x/sys v0.18.0 // indirect
)
