// Package actionproc contains functions to process actions.
package actionproc
