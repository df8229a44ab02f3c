// Package serviceproc contains functions to process services.
package serviceproc
