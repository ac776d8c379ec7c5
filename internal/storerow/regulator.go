package storerow

import (
	"encoding/json"
	"fmt"

	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
)

// RegulatorLogColumns are the columns of regulator_log that
// RegulatorChange reads and RegulatorChangeArgs writes, in that order.
const RegulatorLogColumns = `at, kind, param, before, after, metric, metric_value, severity, want, reason, ref, degraded`

// Params reads the tuned parameter values stored in meta under "params".
func Params(v string) (map[string]float64, error) {
	m := map[string]float64{}
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// AppliedParams is the stored form of params with changes applied.
func AppliedParams(params map[string]float64, changes []regulate.Change) (string, error) {
	s, err := encode(regulate.Apply(params, changes))
	if err != nil {
		return "", fmt.Errorf("encode tuned parameters: %w", err)
	}
	return s, nil
}

// RegulatorChange reads one row of RegulatorLogColumns.
func RegulatorChange(scan Scan) (regulate.Change, error) {
	var c regulate.Change
	var at, kind, ref string
	if err := scan(&at, &kind, &c.Param, &c.Before, &c.After, &c.Metric, &c.MetricValue, &c.Severity, &c.Want,
		&c.Reason, &ref, &c.Degraded); err != nil {
		return c, err
	}
	c.At, c.Kind = ParseTime(at), regulate.Kind(kind)
	if ref != "" {
		c.Ref = ParseTime(ref)
	}
	return c, nil
}

// RegulatorChangeArgs are the values of RegulatorLogColumns for c.
func RegulatorChangeArgs(c regulate.Change) []any {
	ref := ""
	if !c.Ref.IsZero() {
		ref = FormatTime(c.Ref)
	}
	return []any{FormatTime(c.At), string(c.Kind), c.Param, c.Before, c.After, c.Metric, c.MetricValue, c.Severity,
		c.Want, c.Reason, ref, c.Degraded}
}

// RoutingMetrics counts the rows of routing decisions read from rows, each
// (mode, ambiguous, misroute or "").
func RoutingMetrics(rows Rows) (regulate.RoutingMetrics, error) {
	m := regulate.RoutingMetrics{ByMode: map[route.Mode]int{}, Misroutes: map[route.Misroute]int{}}
	err := Each(rows, func(scan Scan) error {
		var mode, misroute string
		var ambiguous bool
		if err := scan(&mode, &ambiguous, &misroute); err != nil {
			return err
		}
		m.Decisions++
		m.ByMode[route.Mode(mode)]++
		if ambiguous {
			m.Ambiguous++
		}
		if misroute != "" {
			m.Misroutes[route.Misroute(misroute)]++
		}
		return nil
	})
	return m, err
}
