package cmd

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdAgents builds `cctx agents` (not implemented yet: hidden).
func NewCmdAgents(f *Factory, runF func() error) *cobra.Command {
	return &cobra.Command{
		Use:    "agents <session>",
		Hidden: true,
		RunE: func(c *cobra.Command, args []string) error {
			return errors.New("cctx agents is not implemented yet")
		},
	}
}
