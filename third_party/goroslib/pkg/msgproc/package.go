// Package msgproc contains functions to process messages.
package msgproc
