package capture

import (
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.byFirst) == 0 {
		t.Fatal("no cues loaded")
	}
	langs := map[string]bool{}
	for _, cs := range l.byFirst {
		for _, c := range cs {
			langs[c.lang] = true
		}
	}
	for _, want := range []string{"en", "fr", "es", "pt", "de", "cs", "zh", "ja"} {
		if !langs[want] {
			t.Errorf("no cues for %s", want)
		}
	}
}

const agentFix = "I've updated the build script to use npm and changed the config. This should fix the error; try running it again."

func TestRead_correction(t *testing.T) {
	for _, c := range []struct {
		name, msg, prev string
		want            bool
	}{
		{"reject", "that's not what I asked for", agentFix, true},
		{"still failing", "still the same error", agentFix, true},
		{"revert", "revert that, please", agentFix, true},
		{"blame", "you broke the build", agentFix, true},
		{"why did you", "why did you remove the tests?", agentFix, true},
		{"no opener and negation of the agent's act", "no, use pnpm, not npm", agentFix, true},
		{"repeat", "I told you to keep the config as it was", agentFix, true},
		{"fr refusal", "non pas du tout.", agentFix, true},
		{"fr still", "ça ne marche toujours pas", agentFix, true},
		{"es still", "sigue sin funcionar, mismo error", agentFix, true},
		{"pt still", "ainda não funciona, continua dando erro", agentFix, true},
		{"de still", "funktioniert immer noch nicht", agentFix, true},
		{"zh still", "还是报错，没有任何变化", agentFix, true},
		{"ja still", "まだ同じエラーが出ます", agentFix, true},
		{"cs", "pořád nefunguje, stejná chyba", agentFix, true},
		{"thanks", "Great, thanks! Now add a README section.", agentFix, false},
		{"new task", "Can you add a dark mode toggle to the settings page?", agentFix, false},
		{"question", "what does the --frozen-lockfile flag do?", agentFix, false},
		{"referential you", "the helper you added looks fine, now write its tests", agentFix, false},
		{"first message", "that's wrong", "", false},
		{"hyphenated opener", "Non-Critical Rubrics - Response Successes.", agentFix, false},
		{"error handling is no failure", "add error handling to the parser", agentFix, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read(c.msg, c.prev)
			if r.Correction != c.want {
				t.Errorf("Read(%q).Correction = %v (score %.3f, cues %q), want %v", c.msg, r.Correction, r.CorrectionScore, r.Cues, c.want)
			}
		})
	}
}

func TestRead_rule(t *testing.T) {
	for _, c := range []struct {
		name, msg string
		want      bool
		text      string // the rule text when want
	}{
		{"from now on", "Thanks. From now on, always use pnpm instead of npm.", true, "From now on, always use pnpm instead of npm"},
		{"never", "do not update seeds, never update seeds please. Check the compiler errors.", true, "do not update seeds, never update seeds please"},
		{"convention", "Don't add comments to the code. That is not how things are done in this repo.", true, "Don't add comments to the code. That is not how things are done in this repo"},
		{"fr", "À partir de maintenant, n'utilise jamais npm.", true, "À partir de maintenant, n'utilise jamais npm"},
		{"es", "Nunca uses var en este proyecto, por favor.", true, "Nunca uses var en este proyecto, por favor"},
		{"pt", "A partir de agora, sempre use pnpm.", true, "A partir de agora, sempre use pnpm"},
		{"de", "Benutze ab jetzt immer pnpm.", true, "Benutze ab jetzt immer pnpm"},
		{"zh", "以后都不要用npm，请用pnpm。", true, "以后都不要用npm，请用pnpm"},
		{"ja", "今後は必ずpnpmを使ってください。", true, "今後は必ずpnpmを使ってください"},
		{"one-off", "do not add seeds for now.", false, ""},
		{"product behaviour", "It will always redirect me to the login page.", false, ""},
		{"state", "The button should always be visible.", false, ""},
		{"question", "Can we make sure the header never overlaps the menu?", false, ""},
		{"plain task", "Add a logout button to the navbar.", false, ""},
		{"still, not always", "funktioniert immer noch nicht", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read(c.msg, agentFix)
			if r.Rule != c.want {
				t.Fatalf("Read(%q).Rule = %v (score %.3f, text %q, cues %q), want %v", c.msg, r.Rule, r.RuleScore, r.RuleText, r.Cues, c.want)
			}
			if c.want && r.RuleText != c.text {
				t.Errorf("RuleText = %q, want %q", r.RuleText, c.text)
			}
		})
	}
}

func TestRead_ruleTextIsVerbatim(t *testing.T) {
	msg := "Looks good.\n\nAlso:   never   commit the .env file — we don't do that in this project!!\n```\ncode that says always never\n```"
	r := Read(msg, agentFix)
	if !r.Rule {
		t.Fatalf("Rule = false (score %.3f, cues %q)", r.RuleScore, r.Cues)
	}
	if !strings.Contains(msg, r.RuleText) || r.RuleText != strings.TrimSpace(r.RuleText) {
		t.Errorf("RuleText %q is not a trimmed substring of the message", r.RuleText)
	}
	if strings.Contains(r.RuleText, "code that says") {
		t.Errorf("RuleText %q reaches into a code block", r.RuleText)
	}
}

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"Don't use NPM!", "dont use npm ."},
		{"C'est faux, l'erreur", "c est faux , l erreur"},
		{"Ça ne marche pas", "ca ne marche pas"},
		{"use Layouts.app. We", "use layouts app . we"},
		{"还是报错", "还 是 报 错"},
		{"line\n```\nskip me\n```\nkeep", "line . keep"},
		{"why?!", "why ?"},
	} {
		var got []string
		for _, tk := range tokenize(c.in) {
			got = append(got, tk.norm)
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("tokenize(%q) = %q, want %q", c.in, g, c.want)
		}
	}
}
