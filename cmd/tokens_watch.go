package cmd

import (
	"io"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/tokenreport"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// tokensWatch redraws the status of the current block (or day) every
// interval until Ctrl-C (or o.Context), and exits 0: in place on a
// terminal, one snapshot after another in a pipe, one JSON document a
// line with --json. Warnings are said once, before the first frame:
// later ones would break the frame on the terminal they share.
func tokensWatch(o *TokensOptions) error {
	f := o.F
	ctx, stop := untilInterrupt(o.Context)
	defer stop()
	screen := render.NewScreen(f.Out(), f.Render())
	for n := 0; ; n++ {
		if err := o.frame(screen); err != nil {
			return err
		}
		if n == 0 {
			f.silence()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.plan.Interval):
		}
	}
}

// frame counts the window again and draws it.
func (o *TokensOptions) frame(screen *render.Screen) error {
	f := o.F
	now := f.Now()
	if o.Since == "" {
		o.plan.Window.Since = now.Add(-tokens.WatchWindow)
	}
	finder, inputs, err := o.inputs()
	if err != nil {
		return err
	}
	res := tokenreport.Report(finder, inputs, o.plan.Prices, o.plan.Window, f.readOptions(), tokenreport.Options{By: o.plan.By, Zone: o.plan.Zone, DropEmpty: true})
	if o.plan.Format == tokens.FormatJSON {
		doc := render.NewTokensJSON(res.Report, o.plan.By, false)
		doc.AddCurrent(res.Report, o.plan.By, now)
		return render.JSON(f.OutJSON(), doc, f.Render())
	}
	st, ok := res.Current(o.plan.By, now)
	var lines []tokens.BudgetLine
	if ok {
		lines = o.plan.Budget.Lines([]tokens.Scope{{Name: "current", Total: st.Total}})
	}
	return screen.Frame(func(w io.Writer) error {
		return render.Watch(w, res.Report, render.WatchOptions{By: o.plan.By, Now: now, Interval: o.plan.Interval, Budget: o.plan.Budget, Lines: lines}, f.Render())
	})
}

// silence sends what is said from now on nowhere.
func (f *Factory) silence() {
	f.report = diag.Discard()
	if f.finder != nil {
		f.finder.Report = f.report
	}
}
