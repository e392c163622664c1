package cmd

import (
	"errors"

	"github.com/spf13/cobra"
)

// NewCmdShow builds `cctx show` (not implemented yet: hidden).
func NewCmdShow(f *Factory, runF func() error) *cobra.Command {
	return &cobra.Command{
		Use:    "show <session>",
		Hidden: true,
		RunE: func(c *cobra.Command, args []string) error {
			return errors.New("cctx show is not implemented yet")
		},
	}
}
