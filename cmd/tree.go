package cmd

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdTree builds `cctx tree` (not implemented yet: hidden).
func NewCmdTree(f *Factory, runF func() error) *cobra.Command {
	return &cobra.Command{
		Use:    "tree <session>",
		Hidden: true,
		RunE: func(c *cobra.Command, args []string) error {
			return errors.New("cctx tree is not implemented yet")
		},
	}
}
