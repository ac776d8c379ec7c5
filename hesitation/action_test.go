package hesitation

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		in   string
		want Action
	}{
		{"reply", ActionReply}, {"REPLY", ActionReply}, {"chat", ActionReply},
		{"question", ActionQuestion}, {"ask", ActionQuestion},
		{"record_lesson", ActionRecordLesson}, {"record-lesson", ActionRecordLesson}, {"remember", ActionRecordLesson},
		{"task", ActionTask}, {"commit", ActionCommit}, {" push ", ActionPush}, {"delete", ActionDelete}, {"rm", ActionDelete},
		{"deploy", ActionDeploy}, {"migrate", ActionMigrate}, {"other", ActionOther}, {"world-changing", ActionOther},
	}
	for _, tt := range tests {
		got, err := ParseAction(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseAction(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	_, err := ParseAction("launch-missiles")
	if !errors.Is(err, ErrUnknownAction) || !strings.Contains(err.Error(), "record_lesson") {
		t.Errorf("ParseAction(unknown) err=%v, want ErrUnknownAction listing the kinds", err)
	}
	as, err := ParseActions("reply, commit,,push")
	if err != nil || len(as) != 3 || as[2] != ActionPush {
		t.Errorf("ParseActions = %v, %v", as, err)
	}
	if _, err := ParseActions("reply,nope"); !errors.Is(err, ErrUnknownAction) {
		t.Errorf("ParseActions(bad) err=%v, want ErrUnknownAction", err)
	}
}

func TestAction_WorldChanging(t *testing.T) {
	for _, a := range ActionKinds() {
		want := a == ActionCommit || a == ActionPush || a == ActionDelete || a == ActionDeploy || a == ActionMigrate || a == ActionOther
		if a.WorldChanging() != want {
			t.Errorf("%s.WorldChanging() = %v, want %v", a, a.WorldChanging(), want)
		}
	}
}

// TestCheck_PlanPerAction drives the score through one signal whose weight
// is set to the wanted score, and checks every action kind's behaviour
// below, inside and above the middle band.
func TestCheck_PlanPerAction(t *testing.T) {
	const draft = "This is clearly right." // fires absolute_claim only
	want := map[Action][3]Behaviour{       // score 29, 30, 50
		ActionReply:        {Proceed, Hedge, Hold},
		ActionQuestion:     {Proceed, Proceed, Proceed},
		ActionRecordLesson: {Proceed, Hold, Hold},
		ActionTask:         {Proceed, NeedsReview, Hold},
		ActionCommit:       {Proceed, Hold, Hold},
		ActionPush:         {Proceed, Hold, Hold},
		ActionDelete:       {Proceed, Hold, Hold},
		ActionDeploy:       {Proceed, Hold, Hold},
		ActionMigrate:      {Proceed, Hold, Hold},
		ActionOther:        {Proceed, Hold, Hold},
	}
	for i, score := range []float64{29, 30, 50} {
		cfg := DefaultConfig()
		cfg.Weights.AbsoluteClaim = score
		res := mustCheck(t, draft, ActionKinds(), Situation{}, nil, cfg)
		if res.Score != int(score) {
			t.Fatalf("score=%d, want %v (signals %+v)", res.Score, score, res.Signals)
		}
		if res.Confident != (score < 30) || res.Threshold != 30 {
			t.Errorf("score %v: confident=%v threshold=%d", score, res.Confident, res.Threshold)
		}
		if len(res.Plan) != len(ActionKinds()) {
			t.Fatalf("plan has %d steps, want %d", len(res.Plan), len(ActionKinds()))
		}
		for j, st := range res.Plan {
			if st.Action != ActionKinds()[j] {
				t.Errorf("step %d action=%s, want %s", j, st.Action, ActionKinds()[j])
			}
			if w := want[st.Action][i]; st.Behaviour != w {
				t.Errorf("score %v, %s: got=%s, want %s", score, st.Action, st.Behaviour, w)
			}
		}
	}
}

func TestCheck_QuestionNeverHesitates(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Weights.AbsoluteClaim = 100
	res := mustCheck(t, "This is clearly right, isn't it?", []Action{ActionQuestion}, Situation{}, nil, cfg)
	if res.Score != 100 || res.Plan[0].Behaviour != Proceed {
		t.Errorf("score=%d behaviour=%s, want 100 and proceed", res.Score, res.Plan[0].Behaviour)
	}
}

func TestCheck_DefaultActionIsReply(t *testing.T) {
	res := mustCheck(t, "ok", nil, Situation{}, nil, DefaultConfig())
	if len(res.Plan) != 1 || res.Plan[0].Action != ActionReply || res.Plan[0].Behaviour != Proceed {
		t.Errorf("plan=%+v, want one proceeding reply", res.Plan)
	}
}

func TestCheck_UnknownAction(t *testing.T) {
	_, err := Check("ok", []Action{"launch"}, Situation{}, nil, DefaultConfig())
	if !errors.Is(err, ErrUnknownAction) {
		t.Errorf("err=%v, want ErrUnknownAction", err)
	}
	// A non-canonical spelling must go through ParseAction first.
	if _, err := Check("ok", []Action{"chat"}, Situation{}, nil, DefaultConfig()); !errors.Is(err, ErrUnknownAction) {
		t.Errorf("alias err=%v, want ErrUnknownAction", err)
	}
}
