package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// usage_known is the agent's own fact (agents.Agent.UsageUnknown), the one
// the terminal's `–` comes from, written for every agent, true or false.
func TestAgentsJSONUsageKnown(t *testing.T) {
	tests := []struct {
		name  string
		agent agents.Agent
		want  string
	}{
		{"a transcript read", agents.Agent{ID: "a1", Status: agents.StatusCompleted, Total: tokens.Total{APICalls: 2, Tokens: 9}}, `"usage_known":true`},
		{"a missing transcript", agents.Agent{ID: "a2", Status: agents.StatusMissing}, `"usage_known":false`},
		{"a call that spawned no agent", agents.Agent{Status: agents.StatusFailed}, `"usage_known":true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.agent
			b, err := json.Marshal(NewAgentsJSON(&agents.Result{Agents: []*agents.Agent{&a}}))
			if err != nil || !strings.Contains(string(b), tt.want) {
				t.Errorf("%v: %s does not hold %s", err, b, tt.want)
			}
		})
	}
}
