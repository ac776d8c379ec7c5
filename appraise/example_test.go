package appraise_test

import (
	"fmt"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/confidence"
)

// The knowledge base scored one imported lesson for the situation; the
// candidate it backs gets strong footing, one it does not back gets little.
func ExampleAppraise() {
	lesson := appraise.Lesson{
		ID: "oberoi", Origin: confidence.OriginImported,
		Content: "The Oberoi Group is a hotel company with its head office in Delhi.",
		Score:   0.78, Resonance: 0.70, Calibration: 0.08, Lexical: 0.8, Confidence: 0.6,
	}
	cfg := appraise.DefaultConfig()
	for _, candidate := range []string{"Delhi", "Mumbai, the financial capital of India"} {
		r := appraise.Appraise(appraise.Input{Lessons: []appraise.Lesson{lesson}, Candidate: candidate}, cfg)
		v := r.Verdict
		fmt.Printf("%s: %s %s strength %.2f abstained %v\n", candidate, v.Valence, v.Band, v.Strength, v.Abstained)
	}
	r := appraise.Appraise(appraise.Input{}, cfg)
	fmt.Println("nothing resonates:", r.Verdict.AbstainReason)
	// Output:
	// Delhi: affirm strong strength 0.78 abstained false
	// Mumbai, the financial capital of India: neutral weak strength 0.00 abstained false
	// nothing resonates: weak_resonance
}
