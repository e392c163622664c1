package cmd

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdTokens builds `cctx tokens` (not implemented yet: hidden).
func NewCmdTokens(f *Factory, runF func() error) *cobra.Command {
	return &cobra.Command{
		Use:    "tokens <session>",
		Hidden: true,
		RunE: func(c *cobra.Command, args []string) error {
			return errors.New("cctx tokens is not implemented yet")
		},
	}
}
